import AuthCrypto
import AuthJSON

/// ID-token validation (OIDC Core §3.1.3.7, RFC 8725): the signature with the issuer's keys under an
/// algorithm from a fixed allow-list, then `iss`, `aud`/`azp`, `exp`, `iat`, `nbf` and `at_hash`.
///
/// Pure: keys and time come in as arguments, so every rule is unit-tested with tokens signed in the test.
struct IDTokenValidator: Sendable {
  /// Why a token was refused; names the rule, never a claim's value.
  enum Failure: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    /// `none`, `HS*`, or an algorithm the issuer does not announce.
    case algorithmNotAllowed
    case unknownKey
    case badSignature
    case wrongIssuer
    case wrongAudience
    case wrongAuthorizedParty
    case expired
    case issuedInFuture
    case notYetValid
    case accessTokenHashMismatch
    case wrongNonce

    var description: String {
      switch self {
      case .malformed(let what): "malformed ID token: \(what)"
      case .algorithmNotAllowed: "ID token algorithm not allowed"
      case .unknownKey: "no issuer key for the ID token"
      case .badSignature: "ID token signature does not verify"
      case .wrongIssuer: "ID token iss is not the issuer"
      case .wrongAudience: "ID token aud does not contain the client"
      case .wrongAuthorizedParty: "ID token azp is missing or not the client"
      case .expired: "ID token expired"
      case .issuedInFuture: "ID token iat is in the future"
      case .notYetValid: "ID token nbf is in the future"
      case .accessTokenHashMismatch: "ID token at_hash does not match the access token"
      case .wrongNonce: "ID token nonce is missing or not the one sent"
      }
    }
  }

  /// The decoded, not yet trusted, header.
  struct Header: Sendable {
    var algorithm: JWSAlgorithm
    var keyID: String?
    var parts: JWSCompact.Parts
  }

  let issuer: String
  let clientID: String
  /// Seconds of clock skew allowed on `exp`, `iat` and `nbf`.
  let leeway: Int64
  /// The allow-list: what the issuer announces, intersected with RS256/ES256.
  let algorithms: [JWSAlgorithm]

  /// Splits the token and reads its header, refusing any algorithm outside the allow-list before a key is
  /// even looked up (RFC 8725 §3.1: the token never picks how it is verified).
  func header(_ token: String) throws(Failure) -> Header {
    let parts: JWSCompact.Parts
    do {
      parts = try JWSCompact.split(token)
    } catch {
      throw .malformed("not a signed compact JWS")
    }
    guard case .object(let header)? = try? JSONParser.parse(parts.header), !header.hasDuplicateKeys else {
      throw .malformed("header is not a JSON object")
    }
    guard let name = header["alg"]?.stringValue else { throw .malformed("header has no alg") }
    guard let algorithm = JWSAlgorithm(rawValue: name), algorithms.contains(algorithm),
      OAuth2Metadata.verifiableAlgorithms.contains(algorithm)
    else { throw .algorithmNotAllowed }
    // RFC 7515 §4.1.11: extensions we do not understand must make the token invalid.
    guard header["crit"] == nil else { throw .malformed("header has crit extensions") }
    let keyID: String?
    switch header["kid"] {
    case nil: keyID = nil
    case .string(let text)?: keyID = text
    default: throw .malformed("header kid is not a string")
    }
    return Header(algorithm: algorithm, keyID: keyID, parts: parts)
  }

  /// - Parameters:
  ///   - accessToken: the access token issued with the ID token, checked against `at_hash`.
  ///   - nonce: the `nonce` of the authorization request, when one was sent: the token must carry exactly it
  ///     (OIDC Core §3.1.3.7 item 11).
  /// - Returns: the verified claims.
  func validate(
    _ token: String, keys: JSONWebKeySet, now: Int64, accessToken: SecretBytes? = nil, nonce: String? = nil
  ) throws(Failure) -> JSONObject {
    let header = try header(token)
    let candidates = keys.candidates(keyID: header.keyID, algorithm: header.algorithm)
    guard !candidates.isEmpty else { throw .unknownKey }
    guard candidates.contains(where: { header.parts.verify(with: $0, algorithm: header.algorithm) }) else {
      throw .badSignature
    }
    guard case .object(let claims)? = try? JSONParser.parse(header.parts.payload), !claims.hasDuplicateKeys else {
      throw .malformed("payload is not a JSON object")
    }
    try check(claims, now: now)
    if let accessToken, let expected = claims["at_hash"] {
      guard expected.stringValue == Self.accessTokenHash(accessToken) else { throw .accessTokenHashMismatch }
    }
    if let nonce {
      guard let claimed = claims["nonce"]?.stringValue, ConstantTime.equals(Array(claimed.utf8), Array(nonce.utf8))
      else { throw .wrongNonce }
    }
    return claims
  }

  /// The claim rules of OIDC Core §3.1.3.7 (items 2, 3, 4, 5, 9, 10); `sub` must be a non-empty string.
  func check(_ claims: JSONObject, now: Int64) throws(Failure) {
    guard claims["iss"]?.stringValue == issuer else { throw .wrongIssuer }
    let audiences: [String]
    switch claims["aud"] {
    case .string(let audience)?: audiences = [audience]
    case .array(let items)?: audiences = items.compactMap(\.stringValue)
    default: throw .wrongAudience
    }
    guard audiences.contains(clientID) else { throw .wrongAudience }
    switch claims["azp"] {
    case nil: guard audiences.count == 1 else { throw .wrongAuthorizedParty }
    case .string(let party)?: guard party == clientID else { throw .wrongAuthorizedParty }
    default: throw .wrongAuthorizedParty
    }
    guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw .malformed("sub is missing") }
    guard let expires = Self.seconds(claims["exp"]) else { throw .malformed("exp is missing") }
    guard now < expires.addingReportingOverflow(leeway).partialValue else { throw .expired }
    guard let issued = Self.seconds(claims["iat"]) else { throw .malformed("iat is missing") }
    guard issued <= now + leeway else { throw .issuedInFuture }
    if let notBefore = claims["nbf"] {
      guard let notBefore = Self.seconds(notBefore) else { throw .malformed("nbf is not a number") }
      guard notBefore <= now + leeway else { throw .notYetValid }
    }
  }

  /// A NumericDate (RFC 7519 §2): integer or fractional seconds, rounded down.
  static func seconds(_ value: JSONValue?) -> Int64? {
    guard case .number(let number)? = value else { return nil }
    if let integer = number.int64Value { return integer }
    guard let double = number.doubleValue, double.isFinite, abs(double) < 1e15 else { return nil }
    return Int64(double.rounded(.down))
  }

  /// OIDC Core §3.1.3.6: base64url of the left half of SHA-256 over the access token's ASCII bytes (RS256 and
  /// ES256 both hash with SHA-256).
  static func accessTokenHash(_ accessToken: SecretBytes) -> String {
    Base64URL.encode(Array(SHA256.hash(accessToken).prefix(SHA256.byteCount / 2)))
  }
}
