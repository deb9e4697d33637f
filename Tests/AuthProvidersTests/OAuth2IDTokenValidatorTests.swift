import AuthCrypto
import AuthJSON
import Testing

@testable import AuthProviders

/// Every rule of `IDTokenValidator`, with tokens signed in the test by keys made with the `openssl` tool.
@Suite struct OAuth2IDTokenValidatorTests {
  static let now: Int64 = 1_750_004_800
  static func validator(algorithms: [JWSAlgorithm] = [.rs256, .es256], leeway: Int64 = 60) -> IDTokenValidator {
    IDTokenValidator(
      issuer: OAuth2Fixture.issuer, clientID: OAuth2Fixture.clientID, leeway: leeway, algorithms: algorithms)
  }

  static func keySet() throws -> JSONWebKeySet {
    try JSONWebKeySet.parse(
      JSONWriter.encode(.object(["keys": .array([OAuth2TestKey.rsa.jwk, OAuth2TestKey.ec.jwk])])))
  }

  /// The failure validating `token` gives, or nil when it is accepted.
  static func failure(
    _ token: String, validator: IDTokenValidator = validator(), accessToken: SecretBytes? = nil
  ) throws -> IDTokenValidator.Failure? {
    let keys = try keySet()
    do throws(IDTokenValidator.Failure) {
      _ = try validator.validate(token, keys: keys, now: now, accessToken: accessToken)
      return nil
    } catch {
      return error
    }
  }

  static func signed(_ changes: [String: JSONValue?] = [:], key: OAuth2TestKey = .rsa) throws -> String {
    try key.sign(claims: oauth2Claims(now: now, changes))
  }

  // MARK: - Accepted

  @Test func aValidRS256TokenIsAcceptedAndItsClaimsReturned() throws {
    let claims = try Self.validator().validate(try Self.signed(), keys: try Self.keySet(), now: Self.now)
    #expect(claims["sub"] == "42")
    #expect(claims["preferred_username"] == "alice")
  }

  @Test func aValidES256TokenIsAccepted() throws {
    #expect(try Self.failure(try Self.signed(key: .ec)) == nil)
  }

  @Test func aTokenWithoutKeyIDIsVerifiedWithTheKeysOfItsAlgorithm() throws {
    let token = try OAuth2TestKey.rsa.sign(header: ["alg": "RS256"], claims: oauth2Claims(now: Self.now))
    #expect(try Self.failure(token) == nil)
  }

  // MARK: - Signature and algorithm

  @Test func aTamperedPayloadFails() throws {
    let token = try Self.signed()
    let parts = token.split(separator: ".").map(String.init)
    let forged = Base64URL.encode(JSONWriter.encode(.object(oauth2Claims(now: Self.now, ["sub": "1"]))))
    #expect(try Self.failure([parts[0], forged, parts[2]].joined(separator: ".")) == .badSignature)
  }

  @Test func aTamperedSignatureFails() throws {
    let token = try Self.signed()
    var signature = Base64URL.decode(String(token.split(separator: ".")[2]))!
    signature[10] ^= 0x01
    let parts = token.split(separator: ".").map(String.init)
    #expect(
      try Self.failure([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: ".")) == .badSignature)
  }

  @Test func aTokenSignedByAnotherKeyUnderTheSameKeyIDFails() throws {
    #expect(try Self.failure(try Self.signed(key: .otherRSA)) == .badSignature)
  }

  @Test func anUnknownKeyIDFails() throws {
    let token = try OAuth2TestKey.rsa.sign(
      header: ["alg": "RS256", "kid": "rotated-away"], claims: oauth2Claims(now: Self.now))
    #expect(try Self.failure(token) == .unknownKey)
  }

  @Test func algNoneIsRefused() throws {
    let header = Base64URL.encode(Array(#"{"alg":"none","kid":"rsa-1"}"#.utf8))
    let payload = Base64URL.encode(JSONWriter.encode(.object(oauth2Claims(now: Self.now))))
    // Unsecured (empty signature) and with a signature segment made up to get past the split.
    #expect(try Self.failure(header + "." + payload + ".") == .malformed("not a signed compact JWS"))
    #expect(try Self.failure(header + "." + payload + ".AAAA") == .algorithmNotAllowed)
  }

  /// RFC 8725 §2.1: HS256 "signed" with the issuer's public key as the HMAC secret must not verify.
  @Test func hs256IsRefusedEvenWithThePublicKeyAsSecret() throws {
    guard case .rsa(let modulus, _) = OAuth2TestKey.rsa.verificationKey else { return }
    let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"rsa-1"}"#.utf8))
    let payload = Base64URL.encode(JSONWriter.encode(.object(oauth2Claims(now: Self.now))))
    let mac = HMACSHA256.authenticate(Array((header + "." + payload).utf8), key: SecretBytes(modulus))
    let token = header + "." + payload + "." + Base64URL.encode(mac)
    #expect(try Self.failure(token) == .algorithmNotAllowed)
    #expect(
      try Self.failure(token, validator: Self.validator(algorithms: [.rs256, .es256, .hs256])) == .algorithmNotAllowed)
  }

  @Test func anAlgorithmTheIssuerDoesNotAnnounceIsRefused() throws {
    #expect(
      try Self.failure(try Self.signed(key: .ec), validator: Self.validator(algorithms: [.rs256]))
        == .algorithmNotAllowed)
  }

  @Test func aKeyOfAnotherTypeUnderTheNamedKeyIDDoesNotVerify() throws {
    // The EC key's id on an RS256 header: no RSA key has that id.
    let token = try OAuth2TestKey.rsa.sign(
      header: ["alg": "RS256", "kid": "ec-1"], claims: oauth2Claims(now: Self.now))
    #expect(try Self.failure(token) == .unknownKey)
  }

  @Test func criticalHeaderExtensionsAreRefused() throws {
    let token = try OAuth2TestKey.rsa.sign(
      header: ["alg": "RS256", "kid": "rsa-1", "crit": ["exp"]], claims: oauth2Claims(now: Self.now))
    #expect(try Self.failure(token) == .malformed("header has crit extensions"))
  }

  @Test func garbageIsMalformed() throws {
    #expect(try Self.failure("not-a-jwt") == .malformed("not a signed compact JWS"))
    #expect(try Self.failure("a.b.c.d") == .malformed("not a signed compact JWS"))
  }

  // MARK: - Claims

  @Test func theWrongIssuerFails() throws {
    #expect(try Self.failure(try Self.signed(["iss": "https://evil.example.com"])) == .wrongIssuer)
    // Exact comparison: a trailing slash is another issuer.
    #expect(try Self.failure(try Self.signed(["iss": .string(OAuth2Fixture.issuer + "/")])) == .wrongIssuer)
  }

  @Test func theWrongAudienceFails() throws {
    #expect(try Self.failure(try Self.signed(["aud": "another-client"])) == .wrongAudience)
    #expect(try Self.failure(try Self.signed(["aud": ["another-client"]])) == .wrongAudience)
    #expect(try Self.failure(try Self.signed(["aud": nil])) == .wrongAudience)
  }

  @Test func severalAudiencesNeedTheClientAsAuthorizedParty() throws {
    let both: JSONValue = [.string(OAuth2Fixture.clientID), "another-client"]
    #expect(try Self.failure(try Self.signed(["aud": both])) == .wrongAuthorizedParty)
    #expect(try Self.failure(try Self.signed(["aud": both, "azp": "another-client"])) == .wrongAuthorizedParty)
    #expect(try Self.failure(try Self.signed(["aud": both, "azp": .string(OAuth2Fixture.clientID)])) == nil)
    #expect(try Self.failure(try Self.signed(["azp": "another-client"])) == .wrongAuthorizedParty)
  }

  @Test func anExpiredTokenFailsOutsideTheLeewayOnly() throws {
    #expect(try Self.failure(try Self.signed(["exp": .number(JSONNumber(Self.now - 61))])) == .expired)
    #expect(try Self.failure(try Self.signed(["exp": .number(JSONNumber(Self.now - 60))])) == .expired)
    #expect(try Self.failure(try Self.signed(["exp": .number(JSONNumber(Self.now - 59))])) == nil)
    let strict = Self.validator(leeway: 0)
    #expect(try Self.failure(try Self.signed(["exp": .number(JSONNumber(Self.now))]), validator: strict) == .expired)
    #expect(try Self.failure(try Self.signed(["exp": nil])) == .malformed("exp is missing"))
  }

  @Test func aTokenIssuedInTheFutureFailsOutsideTheLeewayOnly() throws {
    #expect(try Self.failure(try Self.signed(["iat": .number(JSONNumber(Self.now + 61))])) == .issuedInFuture)
    #expect(try Self.failure(try Self.signed(["iat": .number(JSONNumber(Self.now + 60))])) == nil)
    #expect(try Self.failure(try Self.signed(["iat": nil])) == .malformed("iat is missing"))
    #expect(try Self.failure(try Self.signed(["nbf": .number(JSONNumber(Self.now + 120))])) == .notYetValid)
  }

  @Test func fractionalTimesAreRoundedDown() throws {
    let claims: [String: JSONValue?] = ["exp": .number(JSONNumber(validatedText: "\(Self.now + 10).5"))]
    #expect(try Self.failure(try Self.signed(claims)) == nil)
  }

  @Test func aMissingSubjectIsMalformed() throws {
    #expect(try Self.failure(try Self.signed(["sub": nil])) == .malformed("sub is missing"))
    #expect(try Self.failure(try Self.signed(["sub": ""])) == .malformed("sub is missing"))
  }

  @Test func theAccessTokenHashMustMatchWhenPresent() throws {
    let access = SecretBytes(Array("access-token-value".utf8))
    let good = try Self.signed(["at_hash": .string(IDTokenValidator.accessTokenHash(access))])
    #expect(try Self.failure(good, accessToken: access) == nil)
    let other = SecretBytes(Array("another-access-token".utf8))
    #expect(try Self.failure(good, accessToken: other) == .accessTokenHashMismatch)
  }

  /// OIDC Core §3.1.3.6: base64url of the left half of SHA-256; the expected value computed independently
  /// (Python's hashlib) for the access token of OIDC Core's Appendix A examples.
  @Test func theAccessTokenHashIsTheLeftHalfOfSHA256() {
    let access = SecretBytes(Array("jHkWEdUXMU1BwAsC4vtUsZwnNsV".utf8))
    #expect(IDTokenValidator.accessTokenHash(access) == "E7yFl7Rh_Z0hOWkJ6exs2w")
  }

  // MARK: - Nonce

  /// OIDC Core §3.1.3.7 item 11: when a nonce was sent, the token must carry exactly it.
  @Test func aNonceThatWasSentMustBeInTheToken() throws {
    let keys = try Self.keySet()
    let validator = Self.validator()
    let withNonce = try Self.signed(["nonce": "n-0S6_WzA2Mj"])
    #expect(throws: Never.self) { try validator.validate(withNonce, keys: keys, now: Self.now, nonce: "n-0S6_WzA2Mj") }
    #expect(throws: IDTokenValidator.Failure.wrongNonce) {
      try validator.validate(withNonce, keys: keys, now: Self.now, nonce: "another")
    }
    #expect(throws: IDTokenValidator.Failure.wrongNonce) {
      try validator.validate(try Self.signed(), keys: keys, now: Self.now, nonce: "n-0S6_WzA2Mj")
    }
    // None sent (password and device grants): a nonce in the token is not checked.
    #expect(try Self.failure(withNonce) == nil)
  }

  // MARK: - Key sets

  @Test func theKeySetSkipsKeysItCannotUse() throws {
    let small: JSONValue = .object(["kty": "RSA", "kid": "small", "n": "AQAB", "e": "AQAB"])
    let encryption: JSONValue = .object(
      OAuth2TestKey.rsa.jwk.objectValue!.members.reduce(into: JSONObject()) { object, member in
        object.appendNew(key: member.key, value: member.key == "use" ? "enc" : member.value)
      })
    let octet: JSONValue = .object(["kty": "oct", "k": "c2VjcmV0"])
    let set = try JSONWebKeySet.parse(
      JSONWriter.encode(.object(["keys": [small, encryption, octet, OAuth2TestKey.ec.jwk]])))
    #expect(set.keys.count == 1)
    #expect(set.contains(keyID: "ec-1"))
    #expect(throws: ProviderError.self) { try JSONWebKeySet.parse(Array(#"{"nokeys": []}"#.utf8)) }
  }
}
