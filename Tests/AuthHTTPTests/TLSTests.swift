import AuthHTTP
import AuthHTTPURLSession
import Testing

extension LiveServerTests {
  @Suite struct TLSTests {
    @Test(arguments: ["127.0.0.1", "localhost"])
    func aSelfSignedCertificateIsRejected(host: String) async throws {
      let certificate = try await SelfSignedCertificate.make()
      defer { certificate.remove() }
      let server = try await FixtureServer.start(certificate: certificate)
      defer { server.stop() }
      let client = URLSessionHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: "https://\(host):\(server.port)/json"))
      }
      #expect(error?.code == .tls)
    }
  }
}
