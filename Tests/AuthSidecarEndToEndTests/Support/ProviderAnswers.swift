import Foundation

/// Reading what the provider suites check: the sidecar's answers and notifications, and the auth server's
/// `/_test/counters` (see Tests/Servers/README.md).
extension Dictionary where Key == String, Value == Any {
  /// `error.data` of an answer.
  var errorData: [String: Any]? { (self["error"] as? [String: Any])?["data"] as? [String: Any] }

  /// `result.user` of an answer.
  var user: [String: Any]? { result?["user"] as? [String: Any] }

  /// The `state` of a `sessionChanged` notification.
  var sessionState: String? { (self["params"] as? [String: Any])?["state"] as? String }
}

/// One snapshot of an auth server's counters.
struct ServerCounters {
  let raw: [String: Any]

  subscript(key: String) -> Any? { raw[key] }

  /// Counter `name` ("login", "refresh_rejected", …) of one server ("simplejwt", "anyapi", "oauth2", "form").
  func count(_ name: String, _ server: String) -> Int? { (raw[name] as? [String: Any])?[server] as? Int }

  /// How many requests reached `key` ("POST /api/token/").
  func requests(_ key: String) -> Int { (raw["requests"] as? [String: Any])?[key] as? Int ?? 0 }
}

/// An RFC 3339 timestamp of an answer (`session.expiresAt`) as seconds since 1970.
func unixTime(_ value: Any?) -> Double? {
  guard let text = value as? String else { return nil }
  return ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970
}
