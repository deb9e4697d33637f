import AuthCrypto
import AuthJSON
import Testing

@testable import AuthProviders

/// An access token's claims, read without verifying it: three dot-separated parts, the middle one unpadded (or
/// padded) base64url JSON; anything else is an opaque token.
@Suite struct RESTJWTClaimsTests {
  static let payload = Base64URL.encode(Array(#"{"exp":1796208368,"user_id":"7"}"#.utf8))

  @Test func theMiddlePartIsDecoded() throws {
    let claims = try #require(RESTAnswer.jwtClaims("eyJhbGciOiJIUzI1NiJ9.\(Self.payload).c2lnbmF0dXJl"))
    #expect(RESTAnswer.jwtExpiry(claims) == 1_796_208_368)
    #expect(claims["user_id"] == .string("7"))
  }

  @Test func paddingAfterThePayloadIsIgnored() {
    #expect(RESTAnswer.jwtClaims("e30.\(Self.payload)==.sig")?["user_id"] == .string("7"))
  }

  @Test func anEmptySignatureStillHasThreeParts() {
    #expect(RESTAnswer.jwtClaims("e30.\(Self.payload).")?["user_id"] == .string("7"))
  }

  @Test(arguments: [
    "opaque-token", "e30.\(payload)", "e30.\(payload).sig.more", "..", "e30..sig", "e30.not base64!.sig",
    "e30.\(Base64URL.encode(Array("[1,2]".utf8))).sig", "e30.\(Base64URL.encode(Array("{".utf8))).sig",
  ])
  func anythingElseIsOpaque(_ token: String) {
    #expect(RESTAnswer.jwtClaims(token) == nil)
  }
}
