import Foundation
import Testing

@testable import AuthHTTP

@Suite struct ProxySettingsTests {
  func route(_ settings: ProxySettings, _ scheme: String, _ host: String) -> String? {
    settings.proxy(for: RequestTarget.Origin(scheme: scheme, host: host, port: 443))
  }

  @Test func onlyHTTPSToARemoteHostIsProxied() {
    let settings = ProxySettings(httpsProxy: "http://proxy.example:3128")
    #expect(route(settings, "https", "auth.example.com") == "http://proxy.example:3128")
    // Plain http never goes through a proxy, even to a host that is not loopback.
    #expect(route(settings, "http", "auth.example.com") == nil)
    for loopback in ["127.0.0.1", "127.8.9.10", "localhost", "::1"] {
      #expect(route(settings, "https", loopback) == nil, "\(loopback)")
    }
    #expect(route(ProxySettings(httpsProxy: ""), "https", "auth.example.com") == nil)
    #expect(route(ProxySettings(), "https", "auth.example.com") == nil)
  }

  @Test func noProxyNamesDomainsAddressesAndRanges() {
    let settings = ProxySettings(
      httpsProxy: "http://proxy:1", noProxy: " .corp.example, 10.0.0.0/8,[2001:db8::]/32 ,exact.example")
    #expect(route(settings, "https", "corp.example") == nil)
    #expect(route(settings, "https", "sso.corp.example") == nil)
    #expect(route(settings, "https", "notcorp.example") != nil)
    #expect(route(settings, "https", "exact.example") == nil)
    #expect(route(settings, "https", "sub.exact.example") == nil)
    #expect(route(settings, "https", "10.20.30.40") == nil)
    #expect(route(settings, "https", "11.0.0.1") != nil)
    #expect(route(settings, "https", "2001:db8::5") == nil)
    #expect(route(settings, "https", "2001:db9::5") != nil)
    #expect(route(ProxySettings(httpsProxy: "http://proxy:1", noProxy: "*"), "https", "any.example") == nil)
  }
}

extension LiveServerTests {
  @Suite struct ProxyEnvironmentTests {
    @Test func httpsProxyIsReadAndHTTPProxyIgnored() {
      let names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "all_proxy"]
      let saved = names.map { ($0, ProcessInfo.processInfo.environment[$0]) }
      defer {
        for (name, value) in saved {
          if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
      }
      for name in names { unsetenv(name) }
      setenv("http_proxy", "http://clear.example:1", 1)
      setenv("all_proxy", "http://all.example:1", 1)
      #expect(ProxySettings.environment() == ProxySettings())
      setenv("HTTPS_PROXY", "http://upper.example:1", 1)
      setenv("NO_PROXY", "corp.example", 1)
      #expect(
        ProxySettings.environment() == ProxySettings(httpsProxy: "http://upper.example:1", noProxy: "corp.example"))
      setenv("https_proxy", "http://lower.example:1", 1)
      #expect(ProxySettings.environment().httpsProxy == "http://lower.example:1")
    }
  }
}
