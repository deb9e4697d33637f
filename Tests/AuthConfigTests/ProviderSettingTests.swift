import Testing

@testable import AuthConfig

@Suite struct ProviderSettingTests {
  static func expect(
    _ text: String, path: String = "profiles.default.provider", message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let error = ConfigFixtures.error(text, sourceLocation: sourceLocation)
    #expect(error?.kind == .invalidSetting, sourceLocation: sourceLocation)
    #expect(error?.jsonPath == path, sourceLocation: sourceLocation)
    #expect(error?.message == message, sourceLocation: sourceLocation)
  }

  @Test func localIsAvailable() throws {
    #expect(try ConfigFixtures.parse(ConfigFixtures.local("")).profile("default")?.provider.kind == .local)
  }

  @Test func theProviderIsRequired() {
    Self.expect(
      ConfigFixtures.profile(#""rememberAccountDays": 7"#), message: #"is required; this build supports "local""#)
  }

  @Test(arguments: [("7", "a number"), ("null", "null"), (#"["local"]"#, "an array"), (#"{"local": {}}"#, "an object")])
  func theProviderMustBeAString(value: String, type: String) {
    Self.expect(ConfigFixtures.profile(#""provider": \#(value)"#), message: "must be a string, not \(type)")
  }

  @Test(arguments: ["ldap", "Local", "LOCAL", "", " local", "oauth", "saml"])
  func unknownProviders(name: String) {
    Self.expect(
      ConfigFixtures.profile(#""provider": "\#(name)""#), message: #"unknown provider; this build supports "local""#)
  }

  @Test(arguments: ["rest", "oauth2", "form"])
  func knownProvidersThatAreNotAvailableYet(name: String) {
    Self.expect(
      ConfigFixtures.profile(#""provider": "\#(name)""#),
      message: #"provider "\#(name)" is not available yet in this build; it supports "local""#)
  }

  @Test func notAvailableYetWinsOverItsOwnSettingsObject() {
    Self.expect(
      ConfigFixtures.profile(#""provider": "rest", "rest": {"loginURL": "https://example.com"}"#),
      message: #"provider "rest" is not available yet in this build; it supports "local""#)
  }

  @Test(arguments: ["rest", "oauth2", "form"])
  func settingsForAnotherProviderAreRejected(other: String) {
    Self.expect(
      ConfigFixtures.local(#""\#(other)": {}"#), path: "profiles.default.\(other)",
      message: #"settings for provider "\#(other)", but this profile uses "local""#)
  }

  /// `isAvailable` drives the messages; the decoder's switch is what really accepts a provider. They must agree.
  @Test(arguments: ProviderKind.allCases)
  func availabilityMatchesWhatTheDecoderAccepts(kind: ProviderKind) {
    let text = ConfigFixtures.profile(#""provider": "\#(kind.rawValue)""#)
    let accepted = (try? ConfigFixtures.parse(text)) != nil
    #expect(accepted == kind.isAvailable)
  }

  @Test func theProviderKindNamesItsCase() {
    #expect(ProviderConfig.local(.defaults).kind.description == "local")
  }
}
