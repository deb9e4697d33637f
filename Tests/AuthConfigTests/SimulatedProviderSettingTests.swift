import Foundation
import Testing

@testable import AuthConfig

/// The `simulated` provider's settings: only `timeoutSeconds`, in the remote providers' range; no TLS, no libcurl.
@Suite struct SimulatedProviderSettingTests {
  static func settings(_ text: String) throws -> SimulatedProviderConfig {
    guard case .simulated(let simulated)? = try ConfigFixtures.parse(text).profile("default")?.provider else {
      throw ConfigError(kind: .invalidSetting, file: "test", message: "not a simulated profile")
    }
    return simulated
  }

  @Test func noSettingsTakeTheDefaultTimeout() throws {
    #expect(try Self.settings(ConfigFixtures.profile(#""provider": "simulated""#)).timeoutSeconds == 10)
    let given = ConfigFixtures.profile(#""provider": "simulated", "simulated": {"timeoutSeconds": 3}"#)
    #expect(try Self.settings(given).timeoutSeconds == 3)
  }

  @Test func badSettingsAreRefusedWithTheirPath() {
    let path = "profiles.default.simulated"
    for value in ["0", "31", "\"10\""] {
      ConfigFixtures.expectInvalidSetting(
        ConfigFixtures.profile(#""provider": "simulated", "simulated": {"timeoutSeconds": \#(value)}"#),
        path: path + ".timeoutSeconds")
    }
    ConfigFixtures.expectInvalidSetting(
      ConfigFixtures.profile(#""provider": "simulated", "simulated": {"baseURL": "x"}"#), path: path + ".baseURL")
    ConfigFixtures.expectInvalidSetting(
      ConfigFixtures.profile(#""provider": "simulated", "tls": {"caFile": "/etc/hosts"}"#),
      path: "profiles.default.tls")
  }

  @Test func itIsNotRemoteAndOffersTheDeviceFlow() throws {
    let config = try ConfigFixtures.parse(ConfigFixtures.profile(#""provider": "simulated""#))
    let provider = try #require(config.profile("default")?.provider)
    #expect(!provider.kind.isRemote)
    #expect(provider.loginFlows == [.password, .device])
  }

  /// docs/simulated-provider.md's config loads as written: a host copies it.
  @Test func theDocumentedConfigLoads() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/simulated-provider.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let opened = try #require(text.components(separatedBy: "```json\n").dropFirst().first, "no json block")
    let block = opened.components(separatedBy: "```")[0]
    #expect(try Self.settings(block).timeoutSeconds == 10)
  }
}
