import Testing

@testable import AuthConfig

/// Every configured URL follows one rule, the HTTP client's: the `rest`, `oauth2` and `form` decoders accept and
/// refuse exactly the same hosts over `http://` (they used to disagree on `[0:0:0:0:0:0:0:1]`).
@Suite struct URLSettingTests {
  static let loopbackHosts = [
    "localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "127.255.255.255", "[::1]", "[0:0:0:0:0:0:0:1]",
    "[0000:0000:0000:0000:0000:0000:0000:0001]", "[::0001]", "[0::1]",
  ]
  static let remoteHosts = [
    "example.com", "localhost.example.com", "127.0.0.1.example.com", "128.0.0.1", "10.0.0.1", "127.1", "0x7f.0.0.1",
    "0177.0.0.1", "127.000.000.001", "2130706433", "[::2]", "[::ffff:127.0.0.1]",
  ]

  /// A profile of each remote provider whose URLs all point at `base`, with the path where an error shows.
  static func profiles(base: String) -> [(config: String, path: String)] {
    [
      (
        ConfigFixtures.profile(
          #""provider": "rest", "rest": {"baseURL": "\#(base)", "login": {"path": "/l", "body": {"p": "{password}"}}, "#
            + #""response": {"accessToken": "t"}}"#),
        "profiles.default.rest.baseURL"
      ),
      (
        ConfigFixtures.profile(#""provider": "oauth2", "oauth2": {"issuer": "\#(base)/o", "clientId": "app"}"#),
        "profiles.default.oauth2.issuer"
      ),
      (
        ConfigFixtures.profile(
          #""provider": "oauth2", "oauth2": {"issuer": "https://id.example.com", "clientId": "app", "scopes": ["x"], "#
            + #""endpoints": {"token": "\#(base)/token"}}"#),
        "profiles.default.oauth2.endpoints.token"
      ),
      (
        ConfigFixtures.profile(
          #""provider": "form", "form": {"loginURL": "\#(base)/login", "user": {"url": "\#(base)/me"}}"#),
        "profiles.default.form.loginURL"
      ),
    ]
  }

  @Test(arguments: loopbackHosts)
  func everyDecoderAcceptsHTTPToEveryLoopbackSpelling(host: String) throws {
    for port in ["", ":8000"] {
      for profile in Self.profiles(base: "http://\(host)\(port)") {
        #expect(throws: Never.self, "\(profile.path)") { try ConfigFixtures.parse(profile.config) }
      }
    }
  }

  @Test(arguments: remoteHosts)
  func everyDecoderRefusesHTTPToAnyOtherHost(host: String) {
    for profile in Self.profiles(base: "http://\(host)") {
      ConfigFixtures.expectInvalidSetting(profile.config, path: profile.path)
    }
  }

  @Test(arguments: remoteHosts)
  func everyDecoderAcceptsHTTPSToThoseHosts(host: String) throws {
    for profile in Self.profiles(base: "https://\(host)") {
      #expect(throws: Never.self, "\(profile.path)") { try ConfigFixtures.parse(profile.config) }
    }
  }

  @Test func theRESTBaseURLKeepsItsTwoMessages() {
    let profiles = Self.profiles(base: "http://example.com")
    ConfigFixtures.expectInvalidSetting(
      profiles[0].config, path: profiles[0].path,
      message: "must use https://; http:// is allowed only to a loopback host (127.0.0.0/8, ::1, localhost)")
    let withQuery = Self.profiles(base: "https://example.com/?q=1")
    ConfigFixtures.expectInvalidSetting(
      withQuery[0].config, path: withQuery[0].path,
      message:
        "must be an absolute https:// URL (http:// only to a loopback host) without user info, query or fragment")
  }

  @Test func theRESTBaseURLIsLowerCasedUpToThePathWithoutTrailingSlashes() throws {
    let config = try ConfigFixtures.parse(Self.profiles(base: "HTTP://[0:0:0:0:0:0:0:1]:8000/V1//")[0].config)
    guard case .rest(let rest)? = config.profile("default")?.provider else {
      Issue.record("not a rest profile")
      return
    }
    #expect(rest.baseURL == "http://[0:0:0:0:0:0:0:1]:8000/V1")
  }
}
