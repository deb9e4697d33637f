import AuthConfig
import AuthCrypto
import AuthJSON

/// Reads the API's answers through the profile's field paths and rules: tokens, expiry, the user.
///
/// Decisions come from structure only — status, the configured `success` rule, whether a plausible token is
/// there — never from the text of an error message, which is in whatever language the server speaks.
enum RESTAnswer {
  /// What an accepted login or refresh answer carried.
  struct Tokens {
    /// Nil for a tokenless API (no `response.accessToken`).
    var accessToken: String?
    var refreshToken: String?
    var expiresIn: Int64?
    var tokenType: String?
    var user: JSONObject?
  }

  /// The answer as a JSON value, whatever its `Content-Type`: many login APIs label JSON `text/html`. A UTF-8
  /// byte order mark (PHP files saved with one print it first) is skipped. Nil when the body is not JSON.
  static func json(_ body: [UInt8]) -> JSONValue? {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let bytes = body.starts(with: bom) ? Array(body.dropFirst(bom.count)) : body
    guard !bytes.isEmpty else { return nil }
    return try? JSONParser.parse(bytes)
  }

  /// Whether the answer says outright that it failed: a field of the `success` rule is there with another
  /// value. An answer without those fields (`204`, `{}`) has not said "no".
  static func saysFailed(_ answer: JSONValue?, _ fields: RESTProviderConfig.ResponseFields) -> Bool {
    fields.success?.isContradicted(by: answer) ?? false
  }

  /// The tokens of an accepted answer; nil when the `success` rule does not hold, a refusal the caller names.
  /// - Throws: `badResponse` when the answer is accepted but its access token is not plausible
  ///   (`PlausibleToken`): a failure must never become a session.
  static func tokens(_ answer: JSONValue, _ fields: RESTProviderConfig.ResponseFields, _ what: String) throws
    -> Tokens?
  {
    if let success = fields.success, !success.holds(in: answer) { return nil }
    var tokens = Tokens()
    if let path = fields.accessToken {
      guard let access = PlausibleToken.text(answer.value(at: path)) else {
        throw ProviderError(.badResponse, "\(what): a 2xx answer without a plausible access token at \(path)")
      }
      tokens.accessToken = access
    }
    if let path = fields.refreshToken, case .string(let refresh)? = answer.value(at: path), !refresh.isEmpty {
      tokens.refreshToken = refresh
    }
    if let path = fields.expiresIn, let seconds = answer.value(at: path)?.seconds, seconds > 0 {
      tokens.expiresIn = seconds
    }
    if let path = fields.tokenType, case .string(let type)? = answer.value(at: path), !type.isEmpty {
      tokens.tokenType = type
    }
    if let path = fields.user { tokens.user = answer.value(at: path)?.objectValue }
    return tokens
  }

  // MARK: - JWT

  /// The claims of a JWS-compact access token, decoded without verifying it: the token is the server's, for the
  /// server to check; the sidecar only reads `exp` and, lacking anything better, who the user is. Nil for an
  /// opaque token.
  ///
  /// The token is cut at its dots as bytes: cutting the `String` walked it by grapheme cluster, 70,000 instructions
  /// for one SimpleJWT access token, more than decoding and parsing its claims.
  static func jwtClaims(_ token: String) -> JSONObject? {
    let bytes = token.utf8
    let dot = UInt8(ascii: ".")
    guard let first = bytes.firstIndex(of: dot) else { return nil }
    let afterFirst = bytes.index(after: first)
    guard let second = bytes[afterFirst...].firstIndex(of: dot),
      !bytes[bytes.index(after: second)...].contains(dot)
    else { return nil }
    var payload = bytes[afterFirst..<second]
    while payload.last == UInt8(ascii: "=") { payload.removeLast() }
    guard let decoded = Base64URL.decode(String(Substring(payload))), let claims = try? JSONParser.parse(decoded)
    else { return nil }
    return claims.objectValue
  }

  /// The `exp` claim (Unix seconds).
  static func jwtExpiry(_ claims: JSONObject?) -> Int64? {
    guard let exp = claims?["exp"]?.seconds, exp > 0 else { return nil }
    return exp
  }

  // MARK: - User

  /// The user in `object` through the configured field paths. A missing username falls back to `fallbackUsername`
  /// (what the user typed at login), a missing id to the username; nil when neither can be found.
  static func user(
    _ object: JSONObject, _ fields: RESTProviderConfig.UserFields, fallbackUsername: String?
  ) -> UserInfo? {
    let value = JSONValue.object(object)
    let id = value.value(at: fields.id)?.scalarText
    guard let username = value.value(at: fields.username)?.scalarText ?? fallbackUsername ?? id else { return nil }
    return UserInfo(
      id: id ?? username, username: username, email: value.value(at: fields.email)?.scalarText,
      phone: value.value(at: fields.phone)?.scalarText, displayName: value.value(at: fields.displayName)?.scalarText)
  }

  /// The user from standard JWT claims (`sub` or SimpleJWT's `user_id`, `username` or `preferred_username`,
  /// `email`, `name`), with the same fallbacks as `user(_:_:fallbackUsername:)`.
  static func user(claims: JSONObject, fallbackUsername: String?) -> UserInfo? {
    let id = claims["sub"]?.scalarText ?? claims["user_id"]?.scalarText
    guard
      let username = claims["username"]?.scalarText ?? claims["preferred_username"]?.scalarText
        ?? fallbackUsername ?? id
    else { return nil }
    return UserInfo(
      id: id ?? username, username: username, email: claims["email"]?.scalarText,
      displayName: claims["name"]?.scalarText)
  }
}
