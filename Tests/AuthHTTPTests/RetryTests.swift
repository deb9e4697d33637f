import AuthHTTP
import Foundation
import Testing

extension LiveServerTests {
  @Suite struct RetryTests {
    @Test func a429IsRetriedAfterItsRetryAfter() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let (response, elapsed) = try await measure {
        try await client.send(HTTPRequest(method: .post, url: server.url("/retry-after?key=ra"), body: []))
      }
      #expect(response.status == 200)
      #expect(elapsed >= .seconds(1))
      #expect(try await server.count("ra") == 2)
    }

    @Test func a429AskingForMoreThanMaxRetryAfterComesBackAtOnce() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let (response, elapsed) = try await measure {
        try await client.send(HTTPRequest(url: server.url("/retry-after?key=long&after=120")))
      }
      #expect(response.status == 429)
      #expect(response.header("retry-after") == "120")
      // Not the 30 s a capped wait would take (a hang guard, not a speed test).
      #expect(elapsed < .seconds(15))
      #expect(try await server.count("long") == 1)
    }

    @Test func a503IsRetriedWithBackoffUntilItClears() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let response = try await client.send(HTTPRequest(url: server.url("/flaky?failures=2&key=flaky")))
      #expect(response.status == 200)
      #expect(try await server.count("flaky") == 3)
    }

    @Test func retriesGiveUpAndReturnTheLastResponse() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let response = try await client.send(HTTPRequest(url: server.url("/flaky?failures=5&key=down")))
      #expect(response.status == 503)
      #expect(try await server.count("down") == 3)
    }

    @Test(arguments: [500, 400, 401, 404])
    func otherErrorStatusesAreAnswersAndNotRetried(status: Int) async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let response = try await client.send(HTTPRequest(url: server.url("/status?code=\(status)&key=s")))
      #expect(response.status == status)
      #expect(try await server.count("s") == 1)
    }

    @Test(arguments: ["Basic realm=\"token\"", "Bearer error=\"invalid_token\"", "Digest realm=\"x\""])
    func a401WithAChallengeComesBackAsTheAnswer(challenge: String) async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let encoded = challenge.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
      let (response, elapsed) = try await measure {
        try await client.send(
          HTTPRequest(method: .post, url: server.url("/unauthorized?challenge=\(encoded)"), body: []))
      }
      #expect(response.status == 401)
      #expect(response.header("www-authenticate") == challenge)
      #expect(response.text == #"{"error": "invalid_token"}"#)
      // Not the 5 s total timeout a hanging challenge would run into.
      #expect(elapsed < .seconds(4))
    }

    @Test func a502IsRetriedForAGetButNotForAPost() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let get = try await client.send(HTTPRequest(url: server.url("/flaky?code=502&failures=1&key=get")))
      #expect(get.status == 200)
      #expect(try await server.count("get") == 2)
      // The gateway's upstream may have done the work: a POST is not sent twice.
      let post = try await client.send(
        HTTPRequest(method: .post, url: server.url("/flaky?code=502&failures=1&key=post"), body: []))
      #expect(post.status == 502)
      #expect(try await server.count("post") == 1)
    }

    @Test func aRefusedConnectionIsRetriedEvenForAPostThenThrown() async throws {
      // A port that was just free: bind-and-close through a fixture is racy, port 1 is never served.
      let lines = LogLines()
      let client = CurlHTTPClient(policy: .quick(), log: lines.logger)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(method: .post, url: "http://127.0.0.1:1/token", body: []))
      }
      #expect(error?.code == .networkUnavailable)
      let attempts = lines.all.filter { $0.contains("POST 127.0.0.1:1/token failed") }
      #expect(attempts.count == 3)
    }
  }
}
