import Testing

@testable import AuthHTTP

@Suite struct RequestValidationTests {
  func check(_ request: HTTPRequest) -> HTTPError? {
    do {
      try RequestValidation.check(request)
      return nil
    } catch {
      return error
    }
  }

  @Test func ordinaryRequestsPass() {
    #expect(check(HTTPRequest(url: "https://a/", headers: [HTTPHeader("Accept", "application/json")])) == nil)
    #expect(check(HTTPRequest(method: .post, url: "https://a/", body: Array("x=1".utf8))) == nil)
    #expect(check(HTTPRequest(url: "https://a/", body: [])) == nil)
    #expect(check(HTTPRequest(url: "https://a/", headers: [HTTPHeader("X-Empty", "")])) == nil)
  }

  @Test func aHeaderValueCannotStartAnotherHeader() {
    let error = check(HTTPRequest(url: "https://a/", headers: [HTTPHeader("X-User", "bob\r\nCookie: admin=1")]))
    #expect(error?.code == .invalidRequest)
    #expect(error?.detail.contains("bob") == false)
  }

  /// Methods are `HTTPMethod` cases, so only header names are left to check.
  @Test func headerNamesMustBeTokens() {
    #expect(check(HTTPRequest(url: "https://a/", headers: [HTTPHeader("X Bad", "1")]))?.code == .invalidRequest)
    #expect(check(HTTPRequest(url: "https://a/", headers: [HTTPHeader("", "1")]))?.code == .invalidRequest)
  }

  @Test func aGetCannotCarryABody() {
    #expect(check(HTTPRequest(url: "https://a/", body: [1]))?.code == .invalidRequest)
    #expect(check(HTTPRequest(method: .head, url: "https://a/", body: [1]))?.code == .invalidRequest)
  }

  @Test func idempotenceDefaultsFromTheMethod() {
    #expect(HTTPRequest(url: "https://a/").idempotent)
    #expect(HTTPRequest(method: .delete, url: "https://a/").idempotent)
    #expect(!HTTPRequest(method: .post, url: "https://a/").idempotent)
    #expect(!HTTPRequest(method: .patch, url: "https://a/").idempotent)
    #expect(HTTPRequest(method: .post, url: "https://a/", idempotent: true).idempotent)
  }
}
