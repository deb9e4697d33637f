/// A JSON number kept as its validated lexeme.
///
/// Conversions are on demand: most numbers in this protocol are ids that are only echoed.
package struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
  /// The exact text of the number, already checked against the RFC 8259 grammar.
  package let text: String

  /// - Important: `text` must match the RFC 8259 number grammar; only the parser and the
  ///   integer initializers build numbers.
  package init(validatedText text: String) { self.text = text }

  package init(_ value: Int) { self.text = String(value) }
  package init(_ value: Int64) { self.text = String(value) }

  /// The value as an integer when the lexeme is a plain integer that fits in 64 bits.
  package var int64Value: Int64? { Int64(text) }

  /// The value as a double; nil when it overflows to infinity (a "huge number").
  package var doubleValue: Double? {
    guard let d = Double(text), d.isFinite else { return nil }
    return d
  }

  package var description: String { text }
}
