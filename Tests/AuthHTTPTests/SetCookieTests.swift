import Testing

@testable import AuthHTTP

@Suite struct SetCookieTests {
  @Test func nameValueAndAttributes() throws {
    let cookie = try #require(
      SetCookie(" sid = abc ; Path=/app; Domain=.Example.COM; Secure; HttpOnly; Max-Age=60; SameSite=Lax"))
    #expect(cookie.name == "sid")
    #expect(cookie.value == "abc")
    #expect(cookie.path == "/app")
    #expect(cookie.domain == "example.com")
    #expect(cookie.secure && cookie.httpOnly)
    #expect(cookie.maxAge == 60)
  }

  @Test func theLastAttributeWinsAndBadOnesAreSkipped() throws {
    let cookie = try #require(SetCookie("a=1; Max-Age=10; Max-Age=20; Max-Age=x; Path=relative; Expires=never"))
    #expect(cookie.maxAge == 20)
    #expect(cookie.path == nil)
    #expect(cookie.expires == nil)
    #expect(SetCookie("a=1; Max-Age=-5")?.maxAge == -5)
    #expect(SetCookie("a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT")?.expires == 2_139_722_880)
  }

  @Test func quotesAndEqualsSignsStayInTheValue() {
    #expect(SetCookie(#"a="x=y""#)?.value == #""x=y""#)
    #expect(SetCookie("a=")?.value == "")
  }

  @Test(arguments: [
    "novalue", "=1", " =1", "a=1\u{0}", "a\u{7F}=1", "a=b\tc", String(repeating: "a", count: 4097) + "=1",
  ])
  func unusableCookiesAreIgnored(header: String) {
    #expect(SetCookie(header) == nil)
  }
}
