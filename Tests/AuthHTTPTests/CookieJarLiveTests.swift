import AuthHTTP
import AuthSupport
import Testing

extension LiveServerTests {
  @Suite struct CookieJarLiveTests {
    @Test func cookiesSetByTheServerGoBackToItByPathExpiryAndScheme() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let clock = ManualClock(1_900_000_000)
      var jar = CookieJar(clock: clock)
      jar.store(from: try await client.send(HTTPRequest(url: server.url("/set-cookies"))))

      // Four Set-Cookie fields, one with a comma in its Expires date, arrive as four cookies.
      #expect(jar.named("sid") == "abc123")
      #expect(jar.named("pref") == "dark")
      #expect(jar.header(for: server.url("/account/settings")) == "pref=dark; sid=abc123; short=1")
      #expect(jar.header(for: server.url("/")) == "sid=abc123; short=1")
      // `locked` is Secure: stored, but never sent over plain http.
      #expect(jar.header(for: "https://127.0.0.1:\(server.port)/") == "sid=abc123; short=1; locked=1")

      clock.advance(by: 61)
      #expect(jar.header(for: server.url("/")) == "sid=abc123")
      #expect(jar.named("short") == nil)

      let cookie = try #require(jar.header(for: server.url("/echo")))
      let echo = try await client.send(HTTPRequest(url: server.url("/echo"), headers: [HTTPHeader("Cookie", cookie)]))
      #expect(echo.text.contains(#"["Cookie", "sid=abc123"]"#))
    }
  }
}
