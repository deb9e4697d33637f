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

  /// The providers this build supports, as the messages list them.
  static var available: String {
    ProviderKind.allCases.map { "\"\($0)\"" }.joined(separator: ", ")
  }

  @Test func localIsAvailable() throws {
    #expect(try ConfigFixtures.parse(ConfigFixtures.local("")).profile("default")?.provider.kind == .local)
  }

  @Test func theProviderIsRequired() {
    Self.expect(
      ConfigFixtures.profile(#""rememberAccountDays": 7"#),
      message: "is required; this build supports \(Self.available)")
  }

  @Test(arguments: [("7", "a number"), ("null", "null"), (#"["local"]"#, "an array"), (#"{"local": {}}"#, "an object")])
  func theProviderMustBeAString(value: String, type: String) {
    Self.expect(ConfigFixtures.profile(#""provider": \#(value)"#), message: "must be a string, not \(type)")
  }

  @Test(arguments: ["ldap", "Local", "LOCAL", "", " local", "oauth", "saml"])
  func unknownProviders(name: String) {
    Self.expect(
      ConfigFixtures.profile(#""provider": "\#(name)""#),
      message: "unknown provider; this build supports \(Self.available)")
  }

  @Test(arguments: ["rest", "oauth2", "form"])
  func settingsForAnotherProviderAreRejected(other: String) {
    Self.expect(
      ConfigFixtures.local(#""\#(other)": {}"#), path: "profiles.default.\(other)",
      message: #"settings for provider "\#(other)", but this profile uses "local""#)
  }

  /// Every kind the messages list is one the decoder accepts as a provider. (It may still refuse the profile for
  /// its own settings, e.g. `rest` without `rest`.)
  @Test(arguments: ProviderKind.allCases)
  func everyKindNamedIsAcceptedAsAProvider(kind: ProviderKind) {
    let text = ConfigFixtures.profile(#""provider": "\#(kind.rawValue)""#)
    var refusedAsProvider = false
    do {
      _ = try ConfigFixtures.parse(text)
    } catch {
      refusedAsProvider = error.jsonPath == "profiles.default.provider"
    }
    #expect(!refusedAsProvider)
  }

  @Test func everyProviderButOAuth2TakesPasswordsOnly() throws {
    let local = try #require(try ConfigFixtures.parse(ConfigFixtures.profile(#""provider": "local""#)).profile("default"))
    #expect(local.provider.loginFlows == [.password])
  }

  @Test func theProviderKindNamesItsCase() {
    #expect(ProviderConfig.local(.defaults).kind.description == "local")
  }
}
