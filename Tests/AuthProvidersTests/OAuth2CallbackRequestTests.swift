import AuthCrypto
import Testing

@testable import AuthProviders

/// What the loopback listener answers each request with, and which request ends the wait.
@Suite struct OAuth2CallbackRequestTests {
  static let state = "s7aTe-_value"
  static let issuer = "https://id.example.com"

  static func verdict(_ head: String) -> CallbackRequest.Verdict {
    CallbackRequest.evaluate(Array(head.utf8), state: state, issuer: issuer)
  }

  static func get(_ target: String) -> CallbackRequest.Verdict {
    verdict("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nUser-Agent: test\r\n\r\n")
  }

  @Test func theRedirectWithTheRightStateGivesTheCode() {
    let verdict = Self.get("/callback?code=abc%2Fdef+g&state=\(Self.state)")
    #expect(verdict == .answer(.signedIn, .code(SecretBytes(Array("abc/def g".utf8)))))
  }

  @Test func aWrongOrMissingStateIsABadRequestThatDoesNotEndTheWait() {
    #expect(Self.get("/callback?code=abc&state=other") == .answer(.badRequest, nil))
    #expect(Self.get("/callback?code=abc&state=\(Self.state)x") == .answer(.badRequest, nil))
    #expect(Self.get("/callback?code=abc") == .answer(.badRequest, nil))
    #expect(Self.get("/callback") == .answer(.badRequest, nil))
  }

  @Test func anErrorWithTheRightStateEndsTheWaitAsRefused() {
    #expect(
      Self.get("/callback?error=access_denied&error_description=no+way&state=\(Self.state)")
        == .answer(.refused, .refused(errorCode: "access_denied")))
    // A code outside RFC 6749's characters is not passed on.
    #expect(Self.get("/callback?error=%22quoted%22&state=\(Self.state)") == .answer(.refused, .refused(errorCode: nil)))
  }

  /// RFC 9207: a response naming another issuer is a mix-up.
  @Test func anotherIssuerIsRefused() {
    #expect(Self.get("/callback?code=abc&state=\(Self.state)&iss=https%3A%2F%2Fevil.example") == .answer(.failed, .wrongIssuer))
    #expect(
      Self.get("/callback?code=abc&state=\(Self.state)&iss=https%3A%2F%2Fid.example.com")
        == .answer(.signedIn, .code(SecretBytes(Array("abc".utf8)))))
  }

  @Test func otherPathsAndMethodsAreAnsweredAndIgnored() {
    #expect(Self.get("/favicon.ico") == .answer(.notFound, nil))
    #expect(Self.get("/callback/x?code=a&state=\(Self.state)") == .answer(.notFound, nil))
    #expect(Self.verdict("POST /callback?code=a&state=\(Self.state) HTTP/1.1\r\n\r\n") == .answer(.methodNotAllowed, nil))
  }

  @Test func malformedRequestsAreBadRequests() {
    for head in [
      "GET /callback?code=a&state=\(Self.state)\r\n\r\n",  // no version
      "GET  /callback HTTP/1.1\r\n\r\n",  // two spaces
      "GET callback HTTP/1.1\r\n\r\n",  // not origin-form
      "GET /callback?code=a&state=\(Self.state) HTTP/2\r\n\r\n",
      "GET /callback?code=%zz&state=\(Self.state) HTTP/1.1\r\n\r\n",  // bad escape
      "GET /callback?code=%4&state=\(Self.state) HTTP/1.1\r\n\r\n",  // short escape
      "GET /callback?code=a&code=b&state=\(Self.state) HTTP/1.1\r\n\r\n",  // repeated (RFC 6749 §3.1)
      "GET /callback?code=&state=\(Self.state) HTTP/1.1\r\n\r\n",  // empty code
      "GET /call\u{7F}back HTTP/1.1\r\n\r\n",
      "GET /callback?code=\u{E9}&state=\(Self.state) HTTP/1.1\r\n\r\n",  // raw non-ASCII
    ] {
      #expect(Self.verdict(head) == .answer(.badRequest, nil), "\(head.debugDescription)")
    }
  }

  @Test func anIncompleteHeadWaitsForMoreAndAnOversizedOneIsRefused() {
    #expect(Self.verdict("GET /callback?code=a&state=\(Self.state) HTTP/1.1\r\nHost: x\r\n") == .incomplete)
    #expect(Self.verdict("") == .incomplete)
    let huge = "GET /callback HTTP/1.1\r\nX-Filler: " + String(repeating: "a", count: CallbackRequest.maxHeadBytes)
    #expect(Self.verdict(huge) == .answer(.tooLarge, nil))
    #expect(Self.verdict(huge + "\r\n\r\n") == .answer(.badRequest, nil))
  }

  @Test func aBareLineFeedHeadIsAccepted() {
    #expect(
      Self.verdict("GET /callback?code=a&state=\(Self.state) HTTP/1.0\n\n")
        == .answer(.signedIn, .code(SecretBytes(Array("a".utf8)))))
  }

  /// No page carries anything a request sent.
  @Test func pagesAreFixedTextWithNoStore() {
    let page = String(decoding: CallbackPage.signedIn.bytes, as: UTF8.self)
    #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(page.contains("Cache-Control: no-store\r\n"))
    let body = page.components(separatedBy: "\r\n\r\n")[1]
    #expect(page.contains("Content-Length: \(body.utf8.count)\r\n"))
    #expect(String(decoding: CallbackPage.tooLarge.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 431 "))
  }
}
