import AuthHTTP
import Testing

/// Against an HTTPS fixture whose certificate a CA made in the test signed: trusted only when the profile names
/// that CA, and refused whenever the pin does not match, with nothing sent.
extension LiveServerTests {
  @Suite struct TLSTests {
    @Test(arguments: ["127.0.0.1", "localhost"])
    func aCertificateFromAnUnknownCAIsRefused(host: String) async throws {
      let certificates = try await TestCertificates.make()
      defer { certificates.remove() }
      let server = try await FixtureServer.start(certificate: certificates)
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: "https://\(host):\(server.port)/json?key=refused"))
      }
      #expect(error?.code == .tls)
      #expect(try await server.count("refused") == 0)
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func theProfilesCAFileMakesItTrusted(host: String) async throws {
      let certificates = try await TestCertificates.make()
      defer { certificates.remove() }
      let server = try await FixtureServer.start(certificate: certificates)
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), tls: TLSSettings(caFile: certificates.caPath), log: .disabled)
      let response = try await client.send(HTTPRequest(url: "https://\(host):\(server.port)/json"))
      #expect(response.status == 200)
      #expect(response.text == #"{"ok": true}"#)
    }

    @Test func theRightPinIsAcceptedAndAWrongOneRefusedWithNothingSent() async throws {
      let certificates = try await TestCertificates.make()
      defer { certificates.remove() }
      let server = try await FixtureServer.start(certificate: certificates)
      defer { server.stop() }
      let pinned = CurlHTTPClient(
        policy: .quick(), tls: TLSSettings(caFile: certificates.caPath, pinnedPublicKey: certificates.pin),
        log: .disabled)
      #expect(try await pinned.send(HTTPRequest(url: server.url("/json?key=pinned"))).status == 200)
      let wrongPin = "sha256//" + String(repeating: "A", count: 43) + "="
      let wrong = CurlHTTPClient(
        policy: .quick(), tls: TLSSettings(caFile: certificates.caPath, pinnedPublicKey: wrongPin), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await wrong.send(HTTPRequest(method: .post, url: server.url("/echo?key=wrong"), body: Array("pw".utf8)))
      }
      #expect(error?.code == .tls)
      #expect(try await server.count("pinned") == 1)
      #expect(try await server.count("wrong") == 0)
    }

    /// Easy handles are reused between requests (`EasyHandlePool`) and keep their TLS session caches: a profile
    /// whose pin is wrong must be refused every time, also right after another profile's requests to the same
    /// server succeeded, and one without the private CA must keep failing after one with it succeeded.
    @Test func reusedHandlesKeepEveryProfilesTrustDecisionsApart() async throws {
      let certificates = try await TestCertificates.make()
      defer { certificates.remove() }
      let server = try await FixtureServer.start(certificate: certificates)
      defer { server.stop() }
      let trusted = CurlHTTPClient(policy: .quick(), tls: TLSSettings(caFile: certificates.caPath), log: .disabled)
      let wrongPin = "sha256//" + String(repeating: "B", count: 43) + "="
      let pinnedWrong = CurlHTTPClient(
        policy: .quick(), tls: TLSSettings(caFile: certificates.caPath, pinnedPublicKey: wrongPin), log: .disabled)
      let untrusting = CurlHTTPClient(policy: .quick(), log: .disabled)
      for round in 0..<3 {
        #expect(try await trusted.send(HTTPRequest(url: server.url("/json?key=trusted"))).status == 200)
        for client in [pinnedWrong, untrusting] {
          let error = await httpError { () async throws(HTTPError) in
            try await client.send(HTTPRequest(url: server.url("/json?key=refused")))
          }
          #expect(error?.code == .tls, "round \(round)")
        }
      }
      #expect(try await server.count("trusted") == 3)
      #expect(try await server.count("refused") == 0)
    }
  }
}
