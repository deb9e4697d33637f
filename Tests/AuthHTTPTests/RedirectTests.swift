import AuthHTTP
import Testing

extension LiveServerTests {
  @Suite struct RedirectTests {
    @Test func aSameOriginRedirectIsFollowedWhenAllowed() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let response = try await client.send(
        HTTPRequest(url: server.url("/redirect?to=/json"), redirects: .followSameOrigin(max: 3)))
      #expect(response.status == 200)
      #expect(response.finalURL == server.url("/json"))
    }

    @Test func withRefuseTheRedirectItselfComesBack() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let response = try await client.send(HTTPRequest(url: server.url("/redirect?to=/json&code=303")))
      #expect(response.status == 303)
      #expect(response.header("location") == "/json")
      #expect(response.text == "moved")
    }

    @Test func aRedirectsBodyIsHeldToTheCapToo() async throws {
      // A 3xx handed back as the response is a response like any other: its body is held to the cap.
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: server.url("/redirect?to=/json&size=2097152")))
      }
      #expect(error?.code == .responseTooLarge)
    }

    @Test func aPostRedirectedWith303BecomesAGetWithoutBody() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let response = try await client.send(
        HTTPRequest(
          method: .post, url: server.url("/redirect?to=/echo&code=303"), body: Array("a=1".utf8),
          redirects: .followSameOrigin(max: 1)))
      #expect(response.status == 200)
      #expect(response.text.contains(#""method": "GET""#))
    }

    @Test func aCrossOriginRedirectIsRefusedAndTheOtherOriginNeverContacted() async throws {
      let server = try await FixtureServer.start()
      let other = try await FixtureServer.start(host: "127.0.0.2")
      defer {
        server.stop()
        other.stop()
      }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(
          HTTPRequest(url: server.url("/redirect?to=\(other.url("/json"))"), redirects: .followSameOrigin(max: 3)))
      }
      #expect(error?.code == .redirectRefused)
      #expect(try await other.count("*") == 0)
    }

    @Test func anotherPortIsAnotherOrigin() async throws {
      let server = try await FixtureServer.start()
      let other = try await FixtureServer.start()
      defer {
        server.stop()
        other.stop()
      }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(
          HTTPRequest(url: server.url("/redirect?to=\(other.url("/json"))"), redirects: .followSameOrigin(max: 3)))
      }
      #expect(error?.code == .redirectRefused)
      #expect(try await other.count("*") == 0)
    }

    @Test func oneRedirectMoreThanAllowedIsRefused() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(
          HTTPRequest(url: server.url("/redirect?to=/redirect%3Fto%3D/json"), redirects: .followSameOrigin(max: 1)))
      }
      #expect(error?.code == .redirectRefused)
    }
  }
}
