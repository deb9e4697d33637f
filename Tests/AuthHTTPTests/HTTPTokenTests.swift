import Testing

@testable import AuthHTTP

@Suite struct HTTPTokenTests {
  @Test(arguments: ["GET", "X-Client", "Bearer", "csrftoken", "a", "!#$%&'*+-.^_`|~", "Token0"])
  func tokens(text: String) {
    #expect(HTTPToken.isValid(text))
  }

  @Test(arguments: ["", " ", "X Client", "X-Client:", "a\r\nb", "a\tb", "(x)", "a/b", "é", "a\"b", "{x}", "a@b"])
  func notTokens(text: String) {
    #expect(!HTTPToken.isValid(text))
  }

  /// The request check and the config decoders ask the same rule.
  @Test func requestsWithANonTokenHeaderNameAreRefused() {
    let request = HTTPRequest(url: "https://example.com/", headers: [HTTPHeader("X Bad", "v")])
    #expect(throws: HTTPError.self) { try RequestValidation.check(request) }
  }
}
