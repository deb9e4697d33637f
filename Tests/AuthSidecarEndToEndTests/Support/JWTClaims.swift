import Foundation

/// The claims of a JWT as the tests read and forge them: not verified, as the sidecar reads `exp`.
enum JWTClaims {
  /// The payload of a compact JWS, or nil when it is not one.
  static func of(_ token: String) -> [String: Any]? {
    let parts = token.split(separator: ".")
    guard parts.count == 3 else { return nil }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  }

  /// `token` with its payload replaced by `claims` and the original signature kept.
  static func replacing(_ claims: [String: Any], in token: String) throws -> String {
    let parts = token.split(separator: ".").map(String.init)
    let payload = try JSONSerialization.data(withJSONObject: claims).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    return [parts[0], payload, parts[2]].joined(separator: ".")
  }
}
