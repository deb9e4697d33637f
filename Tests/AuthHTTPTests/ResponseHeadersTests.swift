import AuthHTTP
import Testing

@testable import AuthHTTPURLSession

@Suite struct ResponseHeadersTests {
  @Test func joinedSetCookieFieldsSplitBackIntoCookies() {
    let joined =
      "sid=abc123; Path=/; HttpOnly, pref=dark; Path=/account; Expires=Wed, 21 Oct 2037 07:28:00 GMT, "
      + "short=1; Max-Age=60, locked=1; Secure; Path=/"
    #expect(
      ResponseHeaders.splitJoinedSetCookie(joined) == [
        "sid=abc123; Path=/; HttpOnly", "pref=dark; Path=/account; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
        "short=1; Max-Age=60", "locked=1; Secure; Path=/",
      ])
  }

  @Test func aDateAtTheEndAndACommaInAValueStayWhole() {
    #expect(
      ResponseHeaders.splitJoinedSetCookie("a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT, b=2,3")
        == ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "b=2,3"])
    #expect(ResponseHeaders.splitJoinedSetCookie("a=1") == ["a=1"])
    #expect(ResponseHeaders.splitJoinedSetCookie("") == [])
  }

  @Test func lookupsIgnoreCase() {
    let response = HTTPResponse(
      status: 200, headers: [HTTPHeader("Set-Cookie", "a=1"), HTTPHeader("set-cookie", "b=2"), HTTPHeader("X-A", "1")],
      body: [], finalURL: "https://a/")
    #expect(response.header("x-a") == "1")
    #expect(response.header("SET-COOKIE") == "a=1")
    #expect(response.headers(named: "Set-Cookie") == ["a=1", "b=2"])
    #expect(response.header("missing") == nil)
  }

  @Test func descriptionsLeaveOutSecrets() {
    let request = HTTPRequest(
      method: .post, url: "https://a.example/token?code=SECRET", headers: [HTTPHeader("Authorization", "SECRET")],
      body: Array("SECRET".utf8))
    let response = HTTPResponse(
      status: 200, headers: [HTTPHeader("Set-Cookie", "sid=SECRET")], body: Array("SECRET".utf8), finalURL: "https://a/"
    )
    var jar = CookieJar()
    jar.store(from: response)
    let texts = ["\(request)", "\(response)", "\(jar)", "\(request.headers)", "\(HTTPError(.timeout, "x"))"]
    #expect(texts.allSatisfy { !$0.contains("SECRET") })
    #expect("\(request)" == "HTTPRequest(POST https://a.example/token)")
    #expect("\(response)" == "HTTPResponse(200, 6 bytes)")
    #expect("\(HTTPRequest(url: "https://u:SECRET@a.example/x#f"))" == "HTTPRequest(GET https://a.example/x)")
  }
}
