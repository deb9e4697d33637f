import Testing

@testable import AuthConfig

/// Every ranged integer setting: both bounds accepted, one past each bound and every wrong type rejected.
@Suite struct NumericSettingTests {
  struct Setting: Sendable, CustomTestStringConvertible {
    let path: String
    let range: ClosedRange<Int>
    /// The config with `value` (JSON text) at this setting.
    let config: @Sendable (String) -> String
    /// Reads the setting back from the parsed default profile.
    let read: @Sendable (ProfileConfig) -> Int?

    var testDescription: String { path }
    var rule: String { "must be an integer from \(range.lowerBound) to \(range.upperBound)" }
  }

  static let settings = [
    Setting(
      path: "profiles.default.rememberAccountDays", range: 0...365,
      config: { ConfigFixtures.local(#""rememberAccountDays": \#($0)"#) }, read: { $0.rememberAccountDays }),
    Setting(
      path: "profiles.default.refreshMarginSeconds", range: 0...3600,
      config: { ConfigFixtures.local(#""refreshMarginSeconds": \#($0)"#) }, read: { $0.refreshMarginSeconds }),
    Setting(
      path: "profiles.default.local.accessTokenTTLSeconds", range: 60...86_400,
      config: { ConfigFixtures.localSettings(#""accessTokenTTLSeconds": \#($0)"#) },
      read: { if case .local(let local) = $0.provider { local.accessTokenTTLSeconds } else { nil } }),
    Setting(
      path: "profiles.default.local.refreshTokenTTLDays", range: 1...365,
      config: { ConfigFixtures.localSettings(#""refreshTokenTTLDays": \#($0)"#) },
      read: { if case .local(let local) = $0.provider { local.refreshTokenTTLDays } else { nil } }),
  ]

  @Test(arguments: settings)
  func bothBoundsAreAccepted(setting: Setting) throws {
    for value in [setting.range.lowerBound, setting.range.upperBound] {
      let profile = try #require(try ConfigFixtures.parse(setting.config(String(value))).profile("default"))
      #expect(setting.read(profile) == value)
    }
  }

  @Test(arguments: settings)
  func onePastEitherBoundIsRejected(setting: Setting) {
    for value in [setting.range.lowerBound - 1, setting.range.upperBound + 1] {
      let error = ConfigFixtures.error(setting.config(String(value)))
      #expect(error?.kind == .invalidSetting)
      #expect(error?.jsonPath == setting.path)
      #expect(error?.message == setting.rule)
    }
  }

  /// Numbers that are not plain 64-bit integers are never rounded or clamped.
  @Test(arguments: settings)
  func nonIntegerNumbersAreRejected(setting: Setting) {
    for value in ["100.0", "1e2", "0.5", "-0.0", "99999999999999999999", "1e999"] {
      let error = ConfigFixtures.error(setting.config(value))
      #expect(error?.jsonPath == setting.path, "\(value)")
      #expect(error?.message == setting.rule, "\(value)")
    }
  }

  @Test(arguments: settings)
  func otherTypesAreRejectedByName(setting: Setting) {
    let cases = [
      (#""100""#, "a string"), ("true", "a boolean"), ("null", "null"), ("[100]", "an array"), ("{}", "an object"),
    ]
    for (value, type) in cases {
      let error = ConfigFixtures.error(setting.config(value))
      #expect(error?.jsonPath == setting.path)
      #expect(error?.message == "\(setting.rule), not \(type)")
    }
  }

  @Test func theDocumentedExampleReadsExactly() {
    let text = #"{"profiles": {"work": {"provider": "local", "local": {"accessTokenTTLSeconds": 30}}}}"#
    #expect(
      ConfigFixtures.error(text)?.description
        == "\(ConfigFixtures.file): profiles.work.local.accessTokenTTLSeconds: must be an integer from 60 to 86400")
  }

  @Test func negativeZeroIsZero() throws {
    #expect(
      try ConfigFixtures.parse(ConfigFixtures.local(#""rememberAccountDays": -0"#))
        .profile("default")?.rememberAccountDays == 0)
  }
}
