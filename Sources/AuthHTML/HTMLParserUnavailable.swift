/// libxml2 is not installed (or not usable) on this machine.
package struct HTMLParserUnavailable: Error, Sendable, CustomStringConvertible {
  package let detail: String
  package var description: String { "HTMLParserUnavailable: \(detail)" }
}
