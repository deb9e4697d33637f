import AuthCrypto
import AuthHTTP
import AuthJSON

/// A successful token endpoint answer (RFC 6749 §5.1).
struct TokenAnswer: Sendable {
  var accessToken: SecretBytes
  var tokenType: String
  /// `expires_in`, when the server gave it.
  var expiresIn: Int64?
  var refreshToken: SecretBytes?
  /// The granted scopes (space separated on the wire); nil when the answer leaves them out, which means
  /// "as requested" (§5.1).
  var scopes: [String]?
  var idToken: String?

  /// The longest lifetime taken from an answer: a token claiming more is treated as living this long.
  static let maxLifetime: Int64 = 366 * 86_400

  /// - Throws: `ProviderError.badResponse` for anything but a JSON object with a Bearer access token.
  static func parse(_ body: [UInt8]) throws(ProviderError) -> TokenAnswer {
    guard case .object(let answer)? = try? JSONParser.parse(body), !answer.hasDuplicateKeys else {
      throw ProviderError(.badResponse, "token answer is not a JSON object")
    }
    guard let access = answer["access_token"]?.stringValue, !access.isEmpty else {
      throw ProviderError(.badResponse, "token answer has no access_token")
    }
    // RFC 6750: the only type a client can use without more machinery; the name is case-insensitive.
    guard answer["token_type"]?.stringValue?.lowercased() == "bearer" else {
      throw ProviderError(.badResponse, "token answer has no Bearer token_type")
    }
    var expiresIn: Int64?
    switch answer["expires_in"] {
    case nil, .null?: expiresIn = nil
    case .number(let number)?:
      guard let seconds = IDTokenValidator.seconds(.number(number)) else {
        throw ProviderError(.badResponse, "token answer expires_in is not a number of seconds")
      }
      expiresIn = min(max(seconds, 0), maxLifetime)
    case .string(let text)?:
      // Some servers quote it; accept plain digits only.
      guard let seconds = Int64(text), seconds >= 0 else {
        throw ProviderError(.badResponse, "token answer expires_in is not a number of seconds")
      }
      expiresIn = min(seconds, maxLifetime)
    default:
      throw ProviderError(.badResponse, "token answer expires_in is not a number of seconds")
    }
    let refresh = try optionalString("refresh_token", answer)
    let scope = try optionalString("scope", answer)
    let idToken = try optionalString("id_token", answer)
    return TokenAnswer(
      accessToken: SecretBytes(Array(access.utf8)), tokenType: "Bearer", expiresIn: expiresIn,
      refreshToken: refresh.flatMap { $0.isEmpty ? nil : SecretBytes(Array($0.utf8)) },
      scopes: scope.map { $0.split(separator: " ").map(String.init) },
      idToken: idToken.flatMap { $0.isEmpty ? nil : $0 })
  }

  private static func optionalString(_ key: String, _ answer: JSONObject) throws(ProviderError) -> String? {
    switch answer[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw ProviderError(.badResponse, "token answer \(key) is not a string")
    }
  }

  /// The `error` code of an OAuth error answer (RFC 6749 §5.2), when it is one and the code is within the
  /// characters the RFC allows (%x20-21 / %x23-5B / %x5D-7E), so it can travel to the host as `provider`
  /// without escaping surprises; `error_description` never travels.
  static func errorCode(_ response: HTTPResponse) -> String? {
    guard case .object(let answer)? = try? JSONParser.parse(response.body), let code = answer["error"]?.stringValue,
      (1...64).contains(code.utf8.count),
      code.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) })
    else { return nil }
    return code
  }
}

/// The user from OIDC claims (an ID token's or the userinfo answer's; OIDC Core §5.1).
enum OIDCUser {
  /// Standard claims passed to the host besides the ones `UserInfo` names.
  static let extraClaims = [
    "given_name", "family_name", "email_verified", "phone_number_verified", "locale", "picture",
  ]

  /// `sub` is the id; the username is `preferred_username`, else the email, else `sub`; `name` is the display
  /// name. Nil without a `sub`.
  static func user(from claims: JSONObject) -> UserInfo? {
    guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { return nil }
    let email = nonEmpty(claims["email"])
    var extra = JSONObject()
    for key in extraClaims {
      switch claims[key] {
      case .string(let text)?: extra.appendNew(key: key, value: .string(text))
      case .bool(let flag)?: extra.appendNew(key: key, value: .bool(flag))
      default: break
      }
    }
    return UserInfo(
      id: subject, username: nonEmpty(claims["preferred_username"]) ?? email ?? subject, email: email,
      phone: nonEmpty(claims["phone_number"]), displayName: nonEmpty(claims["name"]), extra: extra)
  }

  private static func nonEmpty(_ value: JSONValue?) -> String? {
    guard let text = value?.stringValue, !text.isEmpty else { return nil }
    return text
  }
}
