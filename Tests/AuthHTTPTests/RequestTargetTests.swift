import Testing

@testable import AuthHTTP

@Suite struct RequestTargetTests {
  @Test func httpsIsAcceptedAnywhereAndHTTPOnLoopbackOnly() throws {
    #expect(throws: Never.self) { try RequestTarget("https://example.com/token?code=x") }
    #expect(throws: Never.self) { try RequestTarget("http://127.0.0.1:8080/token") }
    #expect(throws: Never.self) { try RequestTarget("http://localhost/") }
    #expect(throws: Never.self) { try RequestTarget("http://[::1]:9/") }
    #expect(throws: HTTPError(.insecureURL, "http:// to non-loopback host example.com")) {
      try RequestTarget("http://example.com/")
    }
    #expect(code { try RequestTarget("HTTP://Example.COM/") } == .insecureURL)
  }

  @Test(arguments: [
    "", "/relative", "example.com/x", "ftp://example.com/", "file:///etc/passwd", "https://", "https:///path",
    "https://user:pass@example.com/", "https://user@example.com/", "https://exa mple.com/",
  ])
  func invalidURLs(text: String) {
    #expect(code { try RequestTarget(text) } == .invalidURL)
  }

  @Test func originAndLogNameLeaveOutTheQuery() throws {
    let target = try RequestTarget("https://Auth.Example.com/oauth/token?code=secret#frag")
    #expect(target.origin == RequestTarget.Origin(scheme: "https", host: "auth.example.com", port: 443))
    #expect(target.logName == "auth.example.com:443/oauth/token")
    #expect(try RequestTarget("http://127.0.0.1").path == "/")
  }

  @Test func redirectsResolveAgainstTheCurrentURL() throws {
    let target = try RequestTarget("https://a.example/login/form?x=1")
    #expect(try target.resolving("/home").url == "https://a.example/home")
    #expect(try target.resolving("next").url == "https://a.example/login/next")
    #expect(try target.resolving("https://b.example/").origin.host == "b.example")
    #expect(try target.resolving("//a.example:8443/").origin.port == 8443)
    #expect(code { try target.resolving("http://a.example/") } == .insecureURL)
  }

  private func code(_ body: () throws -> RequestTarget) -> HTTPError.Code? {
    do {
      _ = try body()
      return nil
    } catch {
      return (error as? HTTPError)?.code
    }
  }
}
