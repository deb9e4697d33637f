/// One `Set-Cookie` value, parsed as RFC 6265 §5.2 says a user agent must.
struct SetCookie: Equatable {
  /// Longer values are ignored whole, as browsers do; it also bounds what a server can make us keep.
  static let maxLength = 4096

  var name: String
  var value: String
  var domain: String?
  var path: String?
  var secure = false
  var httpOnly = false
  var maxAge: Int64?
  var expires: Int64?

  /// Nil when the value must be ignored: no `name=`, an empty name, a control character, too long.
  init?(_ header: String) {
    guard header.utf8.count <= Self.maxLength else { return nil }
    var parts = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
    let pair = parts.removeFirst()
    guard let equals = pair.firstIndex(of: "=") else { return nil }
    name = String(pair[..<equals]).trimmingASCIIWhitespace()
    value = String(pair[pair.index(after: equals)...]).trimmingASCIIWhitespace()
    // A control character would let a value end the `Cookie` header we build from it.
    guard !name.isEmpty, !Self.hasControlCharacter(name), !Self.hasControlCharacter(value) else { return nil }
    for attribute in parts {
      let (key, argument) = Self.split(attribute)
      // The last occurrence of an attribute wins (§5.3 step 3 takes "the last attribute").
      switch key.lowercased() {
      case "expires":
        if let date = HTTPDate.parse(argument) { expires = date }
      case "max-age":
        if let seconds = Self.deltaSeconds(argument) { maxAge = seconds }
      case "domain":
        let trimmed = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
        if !trimmed.isEmpty { domain = trimmed.lowercased() }
      case "path":
        path = argument.hasPrefix("/") ? argument : nil
      case "secure":
        secure = true
      case "httponly":
        httpOnly = true
      default:
        continue
      }
    }
  }

  private static func split(_ attribute: String) -> (String, String) {
    guard let equals = attribute.firstIndex(of: "=") else { return (attribute.trimmingASCIIWhitespace(), "") }
    return (
      String(attribute[..<equals]).trimmingASCIIWhitespace(),
      String(attribute[attribute.index(after: equals)...]).trimmingASCIIWhitespace()
    )
  }

  /// §5.2.2: an optional `-`, then digits only. Saturates rather than failing on huge values.
  private static func deltaSeconds(_ text: String) -> Int64? {
    let negative = text.hasPrefix("-")
    let digits = negative ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      return nil
    }
    let magnitude = Int64(digits) ?? Int64.max
    return negative ? -magnitude : magnitude
  }

  private static func hasControlCharacter(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
  }
}
