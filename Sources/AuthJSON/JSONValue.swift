/// A parsed JSON document, as close to the text as the protocol needs.
///
/// Numbers keep their original lexeme so that a request `id` such as `1.50` or
/// `123456789012345678901234567890` is echoed byte for byte, as JSON-RPC requires.
/// Objects keep their members in document order and remember whether a key repeated,
/// because RFC 8259 leaves duplicate keys undefined and the protocol layer rejects them.
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  package var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  package var objectValue: JSONObject? {
    if case .object(let o) = self { return o }
    return nil
  }

  package var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  package var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The JSON type name, for error messages ("expected a string, got a number").
  package var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(nilLiteral: ()) { self = .null }
}
