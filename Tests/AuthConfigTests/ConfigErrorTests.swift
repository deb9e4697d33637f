import Testing

@testable import AuthConfig

/// What an error says: the file and path, and never a value from the file.
@Suite struct ConfigErrorTests {
  @Test func descriptionNamesFileThenPath() {
    let error = ConfigError(kind: .invalidSetting, file: "/c.json", jsonPath: "profiles.a.provider", message: "m")
    #expect(error.description == "/c.json: profiles.a.provider: m")
    #expect(ConfigError(kind: .tooLarge, file: "/c.json", message: "m").description == "/c.json: m")
  }

  /// Later providers keep client secrets in their settings; no error may repeat what the file says.
  @Test(arguments: [
    ConfigFixtures.profile(#""provider": "s3cr3t-VALUE""#),
    ConfigFixtures.local(#""rememberAccountDays": "s3cr3t-VALUE""#),
    ConfigFixtures.validation(#""passwordPreset": "s3cr3t-VALUE""#),
    ConfigFixtures.validation(#""usernamePattern": "(s3cr3t-VALUE""#),
    ConfigFixtures.validation(#""passwordMinLength": 987654321"#),
    ConfigFixtures.localSettings(#""accessTokenTTLSeconds": 987654321"#),
    ConfigFixtures.local(#""refreshMarginSeconds": 987654321"#),
    #"{"profiles": {"default": {"provider": "local", "rest": {"clientSecret": "s3cr3t-VALUE"}}}}"#,
    #"{"profiles": {"default": {"provider": "local", "rest": "s3cr3t-VALUE"}}}"#,
    #"{"profiles": "s3cr3t-VALUE"}"#,
    #"{"profiles": {"default": {"provider": "s3cr3t-VALUE"}}"#,
  ])
  func noValueIsEchoed(text: String) {
    let error = ConfigFixtures.error(text)
    #expect(error != nil)
    #expect(error?.description.contains("s3cr3t") == false)
    #expect(error?.description.contains("987654321") == false)
  }

  @Test func theFileNameComesFromTheSource() {
    let error = #expect(throws: ConfigError.self) {
      try ConfigLoader.parse(Array("[]".utf8), source: .builtInDefault)
    }
    #expect(error?.description == "built-in defaults: must be an object, not an array")
  }
}
