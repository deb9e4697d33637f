import AuthJSON

/// A JSON-RPC request id: a string, a number or null, echoed exactly as received.
package enum RequestID: Sendable, Hashable, CustomStringConvertible {
  case string(String)
  /// The number's original lexeme, so `1.0` comes back as `1.0` and a 30-digit id survives.
  case number(String)
  case null

  /// The id carried by a JSON value, or nil when the value cannot be an id.
  package init?(_ value: JSONValue) {
    switch value {
    case .string(let s): self = .string(s)
    case .number(let n): self = .number(n.text)
    case .null: self = .null
    default: return nil
    }
  }

  package var json: JSONValue {
    switch self {
    case .string(let s): return .string(s)
    case .number(let text): return .number(JSONNumber(validatedText: text))
    case .null: return .null
    }
  }

  package var description: String {
    switch self {
    case .string(let s): return "\"\(s)\""
    case .number(let text): return text
    case .null: return "null"
    }
  }
}
