import AuthHTTP
import Foundation
import Testing

extension LiveServerTests {
  @Suite struct ClientExchangeTests {
    @Test func getReturnsStatusHeadersAndBody() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let response = try await CurlHTTPClient(log: .disabled).send(HTTPRequest(url: server.url("/json")))
      #expect(response.status == 200)
      #expect(response.text == #"{"ok": true}"#)
      #expect(response.header("Content-Type") == "application/json")
      #expect(response.headers.allSatisfy { $0.name == $0.name.lowercased() })
      #expect(response.finalURL == server.url("/json"))
    }

    @Test func postSendsMethodHeadersAndBodyAsGiven() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let body = Array("grant_type=refresh_token&x=%C3%A9".utf8)
      let request = HTTPRequest(
        method: .post, url: server.url("/echo?key=e"),
        headers: [
          HTTPHeader("Authorization", "Basic YTpi"), HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
        ],
        body: body)
      let response = try await CurlHTTPClient(log: .disabled).send(request)
      let echo = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
      #expect(echo["method"] as? String == "POST")
      #expect(echo["path"] as? String == "/echo?key=e")
      let headers = (echo["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }
      #expect(headers.contains { $0 == ("authorization", "Basic YTpi") })
      #expect(headers.contains { $0 == ("content-type", "application/x-www-form-urlencoded") })
      #expect(!headers.contains { $0.0 == "cookie" })
      #expect(Data(base64Encoded: echo["body"] as? String ?? "").map(Array.init) == body)
    }

    @Test func plainHTTPToARemoteHostIsRefusedBeforeAnyIO() async {
      let client = CurlHTTPClient(log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: "http://example.com/"))
      }
      #expect(error?.code == .insecureURL)
    }

    @Test func logsMethodHostPathStatusAndTimingButNoSecret() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let lines = LogLines()
      let client = CurlHTTPClient(policy: .quick(), log: lines.logger)
      _ = try await client.send(
        HTTPRequest(
          method: .post, url: server.url("/echo?code=CANARY-QUERY"),
          headers: [HTTPHeader("Authorization", "Bearer CANARY-HEADER")], body: Array("password=CANARY-BODY".utf8)))
      _ = try await client.send(HTTPRequest(url: server.url("/set-cookies?state=CANARY-STATE")))
      _ = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: server.url("/status?code=503&token=CANARY-RETRY")))
      }
      let log = lines.all.joined()
      #expect(log.contains("POST 127.0.0.1:\(server.port)/echo → 200"))
      #expect(log.contains("retrying in"))
      #expect(!log.contains("CANARY"))
      #expect(!log.contains("abc123"))  // the session cookie's value
    }
  }
}
