import AuthConfig
import AuthCrypto
import AuthJSON

/// Reads the API's answers through the profile's field paths: tokens, expiry, the user.
///
/// Decisions come from structure only — status, the configured `success` flag, whether a token is there —
/// never from the text of an error message, which is in whatever language the server speaks.
enum RESTAnswer {
  /// What a login or refresh answer carried.
  struct Tokens {
    var accessToken: String
    var refreshToken: String?
    var expiresIn: Int64?
    var tokenType: String?
    var user: JSONObject?
  }

  /// The answer as a JSON value; nil when the body is not JSON.
  static func json(_ body: [UInt8]) -> JSONValue? {
    guard !body.isEmpty else { return nil }
    return try? JSONParser.parse(body)
  }

  /// Whether the answer passes the configured `success` flag: it must be the boolean `true`. Always true when no
  /// flag is configured.
  static func succeeded(_ answer: JSONValue, _ fields: RESTProviderConfig.ResponseFields) -> Bool {
    guard let success = fields.success else { return true }
    return answer.value(at: success)?.boolValue == true
  }

  /// Whether the answer says outright that it failed: the `success` flag is present and not `true`.
  static func saysFailed(_ answer: JSONValue?, _ fields: RESTProviderConfig.ResponseFields) -> Bool {
    guard let success = fields.success, let answer, let flag = answer.value(at: success) else { return false }
    return flag.boolValue != true
  }

  /// The tokens of a successful answer; nil when the `success` flag is not `true` or there is no access token,
  /// which the caller reads as a refusal.
  static func tokens(_ answer: JSONValue, _ fields: RESTProviderConfig.ResponseFields) -> Tokens? {
    guard succeeded(answer, fields), case .string(let access)? = answer.value(at: fields.accessToken),
      !access.isEmpty
    else { return nil }
    var tokens = Tokens(accessToken: access)
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
  static func jwtClaims(_ token: String) -> JSONObject? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var payload = String(parts[1])
    while payload.hasSuffix("=") { payload.removeLast() }
    guard let bytes = Base64URL.decode(payload), let claims = try? JSONParser.parse(bytes) else { return nil }
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
