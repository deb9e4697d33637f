import AuthCrypto
import AuthJSON
import AuthStorage
import Testing

@testable import AuthProviders

@Suite struct LocalTokenIssuerTests {
  private func verificationKey(_ fixture: LocalFixture) throws -> JWSVerificationKey? {
    try fixture.store.read { try LocalTokenIssuer.verificationKey(in: $0) }
  }

  @Test func theAccessTokenIsAnEdDSAJWTSignedWithTheStoredKey() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    #expect(try verificationKey(fixture) == nil, "no signing key before the first token")
    let issued = try await fixture.login()
    let token = try #require(text(issued.accessToken))
    let parts = try JWSCompact.split(token)
    let header = try #require(try JSONParser.parse(parts.header).objectValue)
    #expect(header.keys.sorted() == ["alg", "kid", "typ"])
    #expect(header["alg"] == "EdDSA")
    #expect(header["typ"] == "JWT")

    let key = try #require(try verificationKey(fixture))
    guard case .ed25519(let publicKey) = key else {
      Issue.record("expected an Ed25519 key, got \(key)")
      return
    }
    #expect(header["kid"] == .string(Base64URL.encode(Array(SHA256.hash(publicKey).prefix(12)))))
    #expect(parts.verify(with: key, algorithm: .edDSA))
    // Not under another algorithm, and not once the payload is changed.
    #expect(!parts.verify(with: key, algorithm: .hs256))
    var claims = try #require(try JSONParser.parse(parts.payload).objectValue)
    claims["sub"] = "someone-else"
    let forged = try JWSCompact.split(
      Base64URL.encode(parts.header) + "." + Base64URL.encode(JSONWriter.encode(.object(claims))) + "."
        + Base64URL.encode(parts.signature))
    #expect(!forged.verify(with: key, algorithm: .edDSA))
  }

  @Test(arguments: [60, 900, 86_400])
  func theClaimsNameIssuerSubjectAudienceAndLifetime(ttl: Int) async throws {
    let fixture = try LocalFixture(accessTokenTTL: ttl)
    let user = try await fixture.registerAlice()
    fixture.clock.advance(by: 1234)
    let now = fixture.clock.now()
    let issued = try await fixture.provider.login(
      LoginAccount(kind: .email, text: "alice@example.com"), password: password, profile: "work")
    let claims = try claims(of: issued.accessToken)
    #expect(claims.keys.sorted() == ["aud", "exp", "iat", "iss", "jti", "preferred_username", "sub"])
    #expect(claims["iss"] == "auth-sidecar/local")
    #expect(claims["sub"] == .string(user.id))
    #expect(claims["aud"] == "work")
    #expect(claims["preferred_username"] == "alice")
    #expect(claims["iat"] == .number(JSONNumber(now)))
    #expect(claims["exp"] == .number(JSONNumber(now + Int64(ttl))))
    #expect(issued.expiresAt == now + Int64(ttl))
    let jti = try #require(claims["jti"]?.stringValue)
    #expect(jti.count == 32 && jti.allSatisfy(\.isHexDigit))
  }

  @Test func everyTokenHasItsOwnIDUnderOneSigningKey() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    let second = try await fixture.login()
    let rotated = try #require(try await fixture.refresh(first))
    let key = try #require(try verificationKey(fixture))
    var ids: Set<String> = []
    var kids: Set<String> = []
    for issued in [first, second, rotated] {
      let parts = try JWSCompact.split(text(issued.accessToken) ?? "")
      #expect(parts.verify(with: key, algorithm: .edDSA))
      ids.insert(try claims(of: issued.accessToken)["jti"]?.stringValue ?? "")
      kids.insert(try JSONParser.parse(parts.header).objectValue?["kid"]?.stringValue ?? "")
    }
    #expect(ids.count == 3)
    #expect(kids.count == 1)
  }

  @Test func theRefreshTokenIsRandomAndStoredOnlyAsItsHash() async throws {
    let fixture = try LocalFixture(refreshTokenTTLDays: 30)
    let user = try await fixture.registerAlice()
    let issued = try await fixture.provider.login(
      LoginAccount(kind: .username, text: "alice"), password: password, profile: "work")
    let token = try #require(issued.refreshToken)
    // 32 random bytes, unpadded base64url.
    #expect(token.count == 43)
    #expect(Base64URL.decode(text(token) ?? "")?.count == 32)
    let record = try #require(try fixture.storedRefreshToken(token))
    #expect(record.tokenHash == SHA256.hash(Array((text(token) ?? "").utf8)))
    #expect(record.accountID == user.id)
    #expect(record.profile == "work")
    #expect(record.issuedAt == startTime)
    #expect(record.expiresAt == startTime + 30 * 86_400)
    #expect(record.usedAt == nil && !record.revoked)
    #expect(record.familyID.count == 32)
  }
}
