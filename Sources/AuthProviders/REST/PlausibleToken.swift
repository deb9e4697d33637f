import AuthJSON

/// Whether the value at `response.accessToken` can be a token at all. A 2xx answer whose "token" is a flag —
/// `"0"`, `"false"`, a number, a boolean — or nothing is a misread answer (most likely a config pointing
/// `accessToken` at a success flag), and storing it would log a refused password in. Such an answer is
/// `bad_response` and nothing is stored.
enum PlausibleToken {
  /// Shorter than this is a flag or a status word, not a secret: the shortest real tokens (DRF's 40 hex digits,
  /// JWTs, 128-bit random ids) are far longer.
  static let minimumLength = 8
  /// Words a server writes where a token would be when it has none; compared ignoring case.
  static let placeholders: Set<String> = ["undefined", "null", "none", "false", "true", "invalid", "anonymous"]

  /// The token text; nil when `value` is not a plausible token.
  static func text(_ value: JSONValue?) -> String? {
    guard case .string(let text)? = value, text.utf8.count >= minimumLength,
      !placeholders.contains(text.lowercased()),
      // It goes back in an `Authorization` header: visible ASCII only (RFC 6750's b64token is narrower still), so
      // it cannot smuggle a header of its own or fail every later request.
      text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    else { return nil }
    return text
  }
}
