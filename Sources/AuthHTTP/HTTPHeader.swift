/// One header field. Requests and responses carry a list of these rather than a dictionary, so a
/// name may repeat (`set-cookie`) and order is kept.
package struct HTTPHeader: Sendable, Equatable, CustomStringConvertible {
  package var name: String
  package var value: String

  package init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }

  /// The name only: values carry tokens and cookies, and this may end up in a log line.
  package var description: String { "HTTPHeader(\(name))" }
}
