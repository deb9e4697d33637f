import AuthCrypto
import Testing

@testable import AuthProviders

/// PKCE S256 (RFC 7636) and the request nonces.
@Suite struct OAuth2PKCETests {
  /// RFC 7636 Appendix B.
  @Test func theRFC7636AppendixBVectorGivesItsChallenge() {
    let pkce = PKCE(verifier: SecretBytes(Array("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".utf8)))
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(PKCE.method == "S256")
  }

  /// §4.1: 43–128 characters of the unreserved set; ours are 43 (32 random bytes).
  @Test func aGeneratedVerifierIs43UnreservedCharactersAndDiffersEachTime() throws {
    let first = try PKCE.generate(SystemRandomSource())
    let second = try PKCE.generate(SystemRandomSource())
    let verifier = try #require(text(first.verifier))
    #expect(verifier.utf8.count == 43)
    #expect(verifier.utf8.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
        || byte == 0x5F
    })
    #expect(!first.verifier.constantTimeEquals(second.verifier))
    #expect(first.challenge == Base64URL.encode(SHA256.hash(Array(verifier.utf8))))
    #expect("\(first.verifier)" == "<redacted>")
  }

  @Test func stateAndNonceAre256BitsOfBase64URL() throws {
    let state = try RequestNonce.generate(SystemRandomSource())
    #expect(state.utf8.count == 43)
    #expect(Base64URL.decode(state)?.count == 32)
    #expect(state != (try RequestNonce.generate(SystemRandomSource())))
  }
}
