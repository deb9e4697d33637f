/// Why a text is not a JSON document this process accepts.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Reason: Sendable, Equatable {
    /// Not RFC 8259 JSON (including invalid UTF-8, raw control characters and lone surrogates).
    case syntax
    /// Well-formed JSON nested deeper than the configured limit.
    case tooDeep
  }

  package let reason: Reason
  /// Byte offset where the problem was found.
  package let offset: Int
  /// A short description for the log and the error answer; never contains input text.
  package let detail: String

  package var description: String { "\(detail) at byte \(offset)" }
}
