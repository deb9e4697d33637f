import AuthHTTP
import Testing

/// The proxy rules against a real CONNECT proxy on loopback, which logs every request line it receives. Hosts
/// are named `auth.test`, which the proxy tunnels to 127.0.0.1: the request goes through it or fails.
extension LiveServerTests {
  @Suite struct ProxyTests {
    @Test func httpsGoesThroughTheProxyAsATunnelWithTLSVerifiedEndToEnd() async throws {
      let certificates = try await TestCertificates.make()
      defer { certificates.remove() }
      let server = try await FixtureServer.start(certificate: certificates)
      let proxy = try await ConnectProxy.start()
      defer {
        server.stop()
        proxy.stop()
      }
      let settings = ProxySettings(httpsProxy: proxy.url)
      let trusted = CurlHTTPClient(
        policy: .quick(), tls: TLSSettings(caFile: certificates.caPath), proxy: settings, log: .disabled)
      let response = try await trusted.send(
        HTTPRequest(method: .post, url: "https://auth.test:\(server.port)/echo?key=tunnel", body: Array("pw".utf8)))
      #expect(response.status == 200)
      #expect(proxy.requestLines == ["CONNECT auth.test:\(server.port) HTTP/1.1"])
      // The proxy's own trust never stands in for the server's: without the CA the tunnel's TLS fails.
      let untrusted = CurlHTTPClient(policy: .quick(), proxy: settings, log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await untrusted.send(HTTPRequest(url: "https://auth.test:\(server.port)/json?key=untrusted"))
      }
      #expect(error?.code == .tls)
      #expect(try await server.count("untrusted") == 0)
    }

    @Test func loopbackAndPlainHTTPNeverGoThroughTheProxy() async throws {
      let certificates = try await TestCertificates.make()
      defer { certificates.remove() }
      let secure = try await FixtureServer.start(certificate: certificates)
      let plain = try await FixtureServer.start()
      let proxy = try await ConnectProxy.start()
      defer {
        secure.stop()
        plain.stop()
        proxy.stop()
      }
      let client = CurlHTTPClient(
        policy: .quick(), tls: TLSSettings(caFile: certificates.caPath), proxy: ProxySettings(httpsProxy: proxy.url),
        log: .disabled)
      #expect(try await client.send(HTTPRequest(url: "https://localhost:\(secure.port)/json")).status == 200)
      #expect(try await client.send(HTTPRequest(url: "https://127.0.0.1:\(secure.port)/json")).status == 200)
      let login = HTTPRequest(method: .post, url: plain.url("/echo"), body: Array("password=hunter2".utf8))
      #expect(try await client.send(login).status == 200)
      #expect(proxy.requestLines.isEmpty, "\(proxy.requestLines)")
    }
  }
}
