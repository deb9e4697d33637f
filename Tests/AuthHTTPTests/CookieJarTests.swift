import AuthHTTP
import AuthSupport
import Testing

@testable import AuthHTTP

@Suite struct CookieJarTests {
  let clock = ManualClock(1_900_000_000)

  func response(_ url: String, _ cookies: String...) -> HTTPResponse {
    HTTPResponse(status: 200, headers: cookies.map { HTTPHeader("Set-Cookie", $0) }, body: [], finalURL: url)
  }

  @Test func aHostOnlyCookieGoesBackToThatHostOnly() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("https://auth.example.com/login", "sid=1"))
    #expect(jar.header(for: "https://auth.example.com/") == "sid=1")
    #expect(jar.header(for: "https://sub.auth.example.com/") == nil)
    #expect(jar.header(for: "https://example.com/") == nil)
  }

  @Test func aDomainCookieCoversSubdomainsButNeverAnotherSite() {
    var jar = CookieJar(clock: clock)
    jar.store(
      from: response(
        "https://auth.example.com/", "d=1; Domain=example.com", "evil=1; Domain=other.com", "tld=1; Domain=com"))
    #expect(jar.header(for: "https://www.example.com/") == "d=1")
    #expect(jar.header(for: "https://example.com/") == "d=1")
    #expect(jar.header(for: "https://badexample.com/") == nil)
    #expect(jar.header(for: "https://other.com/") == nil)
    #expect(jar.named("tld") == nil)
  }

  @Test func aDomainEqualToTheHostCoversItsSubdomains() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("https://auth.example.com/", "d=1; Domain=auth.example.com"))
    jar.store(from: response("http://localhost:8080/", "l=1; Domain=localhost"))
    #expect(jar.header(for: "https://sub.auth.example.com/") == "d=1")
    #expect(jar.header(for: "http://localhost:9/") == "l=1")
    #expect(jar.header(for: "http://a.localhost:9/") == nil)
  }

  @Test func anIPAddressHostGetsHostOnlyCookies() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("http://127.0.0.1:8080/", "a=1; Domain=127.0.0.1", "b=1; Domain=0.0.1"))
    #expect(jar.header(for: "http://127.0.0.1:9999/") == "a=1")
  }

  @Test func pathsDefaultToTheRequestDirectoryAndMatchOnSegments() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("https://a.example/app/login", "dir=1", "root=1; Path=/", "deep=1; Path=/app/admin"))
    #expect(jar.header(for: "https://a.example/app") == "dir=1; root=1")
    #expect(jar.header(for: "https://a.example/app/admin/users") == "deep=1; dir=1; root=1")
    #expect(jar.header(for: "https://a.example/application") == "root=1")
    #expect(jar.header(for: "https://a.example/") == "root=1")
  }

  @Test func secureCookiesTravelOverHTTPSOnly() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("https://a.example/", "s=1; Secure", "p=1"))
    #expect(jar.header(for: "https://a.example/") == "s=1; p=1")
    #expect(jar.header(for: "http://a.example/") == "p=1")
  }

  @Test func maxAgeWinsOverExpiresAndBothExpireOnTheInjectedClock() {
    var jar = CookieJar(clock: clock)
    jar.store(
      from: response(
        "https://a.example/", "m=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
        "e=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "s=1"))
    #expect(jar.header(for: "https://a.example/") == "m=1; e=1; s=1")
    clock.advance(by: 60)
    #expect(jar.header(for: "https://a.example/") == "e=1; s=1")
    clock.advance(by: 2_139_722_880 - 1_900_000_060)
    #expect(jar.header(for: "https://a.example/") == "s=1")
  }

  @Test func aServerReplacesAndDeletesItsCookies() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("https://a.example/", "sid=old", "keep=1"))
    clock.advance(by: 5)
    jar.store(from: response("https://a.example/", "sid=new"))
    #expect(jar.named("sid") == "new")
    // Replacing keeps the original creation time, so the order does not change.
    #expect(jar.header(for: "https://a.example/") == "sid=new; keep=1")
    jar.store(from: response("https://a.example/", "sid=; Max-Age=0"))
    #expect(jar.named("sid") == nil)
    jar.store(from: response("https://a.example/", "keep=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"))
    #expect(jar.isEmpty)
  }

  @Test func theJarStaysBounded() {
    var jar = CookieJar(clock: clock)
    for index in 0..<(CookieJar.maxCookies + 20) {
      clock.advance(by: 1)
      jar.store(from: response("https://a.example/", "c\(index)=1"))
    }
    #expect(jar.cookies.count == CookieJar.maxCookies)
    #expect(jar.named("c0") == nil)
    #expect(jar.named("c\(CookieJar.maxCookies + 19)") == "1")
  }

  @Test func serializedBytesRoundTripWithoutExpiredCookies() throws {
    var jar = CookieJar(clock: clock)
    jar.store(
      from: response(
        "https://a.example/app/x", "sid=1; Secure; HttpOnly", "short=1; Max-Age=10", "d=1; Domain=a.example"))
    clock.advance(by: 10)
    let bytes = jar.serialized
    let restored = try CookieJar(serialized: bytes, clock: clock)
    #expect(restored.cookies == jar.cookies.filter { $0.name != "short" })
    #expect(restored.serialized == bytes)
    #expect(restored.header(for: "https://a.example/app/") == "sid=1; d=1")
  }

  @Test(arguments: ["", "{}", "[]", #"{"version":2,"cookies":[]}"#, "not json"])
  func foreignBytesAreRefused(text: String) {
    #expect(throws: HTTPError.self) { try CookieJar(serialized: Array(text.utf8)) }
    do {
      _ = try CookieJar(serialized: Array(text.utf8))
    } catch {
      #expect(error.code == .corruptCookieJar)
    }
  }

  @Test func requestURLOverridesTheResponsesFinalURL() {
    var jar = CookieJar(clock: clock)
    jar.store(from: response("https://b.example/", "x=1"), requestURL: "https://a.example/")
    #expect(jar.header(for: "https://a.example/") == "x=1")
    #expect(jar.header(for: "https://b.example/") == nil)
  }
}
