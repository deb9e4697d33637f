import Testing

@testable import AuthHTTP

@Suite struct ResponseHeadersTests {
  func head(_ lines: [String]) -> [HTTPHeader] {
    var head = ResponseHead()
    for line in lines { Array(line.utf8).withUnsafeBytes { head.take(line: $0) } }
    return head.headers
  }

  @Test func repeatedFieldsJoinButEachSetCookieStaysItsOwn() {
    let headers = head([
      "HTTP/1.1 200 OK\r\n", "Set-Cookie: a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT\r\n", "Vary: Accept\r\n",
      "set-cookie: b=2\r\n", "VARY: Origin\r\n", "X-Empty:\r\n", "\r\n",
    ])
    #expect(
      headers == [
        HTTPHeader("set-cookie", "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT"), HTTPHeader("set-cookie", "b=2"),
        HTTPHeader("vary", "Accept, Origin"), HTTPHeader("x-empty", ""),
      ])
  }

  @Test func anInterimResponsesFieldsAreDroppedWithIt() {
    let headers = head([
      "HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "X-Final: 2\r\n",
      "  folded\r\n", "\r\n",
    ])
    #expect(headers == [HTTPHeader("x-final", "2 folded")])
  }

  @Test func aResponseReadsTheFieldsOfItsRawHeadWhenAsked() {
    var head = ResponseHead()
    for line in ["HTTP/1.1 200 OK\r\n", "Content-Type: application/json\r\n", "Set-Cookie: a=1\r\n", "\r\n"] {
      Array(line.utf8).withUnsafeBytes { head.take(line: $0) }
    }
    let response = HTTPResponse(status: 200, head: head, body: [], finalURL: "http://127.0.0.1/")
    #expect(response.headers == [HTTPHeader("content-type", "application/json"), HTTPHeader("set-cookie", "a=1")])
    #expect(response.header("Content-Type") == "application/json")
    #expect(response.headers(named: "set-cookie") == ["a=1"])
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
