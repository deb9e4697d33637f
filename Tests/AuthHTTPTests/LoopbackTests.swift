import Testing

@testable import AuthHTTP

@Suite struct LoopbackTests {
  @Test(arguments: [
    "localhost", "LOCALHOST", "LocalHost", "127.0.0.1", "127.0.0.2", "127.255.255.254", "127.255.255.255", "127.1.2.3",
    "::1", "[::1]", "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]", "0000:0000:0000:0000:0000:0000:0000:0001", "::0:1",
    "::0001", "[::0001]", "0::1", "0:0::0:1", "::0.0.0.1",
  ])
  func loopbackSpellings(host: String) {
    #expect(Loopback.isLoopback(host: host))
  }

  @Test(arguments: [
    "", "example.com", "localhost.example.com", "127.0.0.1.example.com", "localhost.", "128.0.0.1", "126.255.255.255",
    "10.0.0.1", "0.0.0.0", "127.1", "127.0.1", "0x7f.0.0.1", "0177.0.0.1", "127.000.000.001", "2130706433",
    "127.0.0.256", " 127.0.0.1", "::", "::2", "[::2]", "::1:0", "1::1", "::ffff:127.0.0.1", "[::1", "::1]", "[[::1]]",
    "fe80::1%lo",
  ])
  func otherHosts(host: String) {
    #expect(!Loopback.isLoopback(host: host))
  }

  /// The HTTP client's rule is this one: every loopback spelling may use http://, nothing else may.
  @Test(arguments: ["http://localhost/", "http://127.0.0.9:8/x", "http://[::1]/", "http://[0:0:0:0:0:0:0:1]:80/"])
  func requestTargetsAcceptHTTPToEveryLoopbackSpelling(url: String) {
    #expect(throws: Never.self) { try RequestTarget(url) }
  }

  @Test(arguments: ["http://127.1/", "http://[::2]/", "http://localhost.example.com/", "http://[::ffff:127.0.0.1]/"])
  func requestTargetsRefuseHTTPElsewhere(url: String) {
    #expect(throws: HTTPError.self) { try RequestTarget(url) }
  }
}
