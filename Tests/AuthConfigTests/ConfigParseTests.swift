import AuthValidation
import Testing

@testable import AuthConfig

/// Configs that are valid: the values they produce and the defaults they leave.
@Suite struct ConfigParseTests {
  @Test func theFullExampleParsesToItsValues() throws {
    let config = try ConfigFixtures.parse(ConfigFixtures.fullExample)
    #expect(config.source == ConfigFixtures.source)
    #expect(config.profileNames == ["default"])
    let profile = try #require(config.profile("default"))
    #expect(profile.name == "default")
    #expect(profile.provider == .local(LocalProviderConfig(accessTokenTTLSeconds: 900, refreshTokenTTLDays: 30)))
    #expect(profile.provider.kind == .local)
    #expect(profile.validation.passwordPreset == .standard)
    #expect(profile.validation.passwordMinLength == 8)
    #expect(profile.validation.passwordMaxLength == 128)
    #expect(profile.validation.usernameMinLength == 3)
    #expect(profile.validation.usernameMaxLength == 30)
    #expect(profile.validation.usernamePattern == "^[a-z0-9_]+$")
    #expect(profile.rememberAccountDays == 7)
    #expect(profile.refreshMarginSeconds == 60)
  }

  @Test func nonDefaultValuesAreKept() throws {
    let text = ConfigFixtures.local(
      #"""
      "validation": {"passwordPreset": "classic", "passwordMinLength": 10, "usernameMaxLength": 20},
      "rememberAccountDays": 0, "refreshMarginSeconds": 3600,
      "local": {"accessTokenTTLSeconds": 60, "refreshTokenTTLDays": 365}
      """#)
    let profile = try #require(try ConfigFixtures.parse(text).profile("default"))
    #expect(profile.validation.passwordPreset == .classic)
    #expect(profile.validation.passwordMinLength == 10)
    #expect(profile.validation.passwordMaxLength == 64, "the classic preset's maximum, since none was set")
    #expect(profile.validation.usernameMinLength == 3)
    #expect(profile.validation.usernameMaxLength == 20)
    #expect(profile.validation.usernamePattern == nil)
    #expect(profile.rememberAccountDays == 0)
    #expect(profile.refreshMarginSeconds == 3600)
    #expect(profile.provider == .local(LocalProviderConfig(accessTokenTTLSeconds: 60, refreshTokenTTLDays: 365)))
  }

  @Test func aProfileWithOnlyAProviderHasEveryDefault() throws {
    let profile = try #require(try ConfigFixtures.parse(ConfigFixtures.local("")).profile("default"))
    Self.expectDefaults(profile)
  }

  @Test func emptyValidationAndLocalObjectsMeanDefaults() throws {
    let text = ConfigFixtures.local(#""validation": {}, "local": {}"#)
    Self.expectDefaults(try #require(try ConfigFixtures.parse(text).profile("default")))
  }

  @Test func theBuiltInDefaultIsOneDefaultLocalProfile() throws {
    let config = SidecarConfig.builtInDefault
    #expect(config.source == .builtInDefault)
    #expect(config.source.description == "built-in defaults")
    #expect(config.profileNames == ["default"])
    Self.expectDefaults(try #require(config.profile("default")))
  }

  @Test func defaultIsNotAddedWhenOtherProfilesAreListed() throws {
    let text = #"{"profiles": {"work": {"provider": "local"}, "home.lab-2_x": {"provider": "local"}}}"#
    let config = try ConfigFixtures.parse(text)
    #expect(config.profileNames == ["home.lab-2_x", "work"])
    #expect(config.profile("default") == nil)
    #expect(config.profile("work")?.name == "work")
  }

  @Test(arguments: ["a", "Z", "0", "_", ".", "-", "work.eu-1_B", String(repeating: "p", count: 64)])
  func validProfileNames(name: String) throws {
    let config = try ConfigFixtures.parse(ConfigFixtures.profile(#""provider": "local""#, name: name))
    #expect(config.profile(name)?.name == name)
  }

  @Test func whitespaceAroundTheDocumentIsFine() throws {
    #expect(try ConfigFixtures.parse("\n\t " + ConfigFixtures.local("") + " \r\n").profileNames == ["default"])
  }

  static func expectDefaults(_ profile: ProfileConfig, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(profile.provider == .local(.defaults), sourceLocation: sourceLocation)
    #expect(profile.provider == .local(LocalProviderConfig(accessTokenTTLSeconds: 900, refreshTokenTTLDays: 30)))
    #expect(profile.validation.passwordPreset == .standard, sourceLocation: sourceLocation)
    #expect(profile.validation.passwordMinLength == 8, sourceLocation: sourceLocation)
    #expect(profile.validation.passwordMaxLength == 128, sourceLocation: sourceLocation)
    #expect(profile.validation.usernameMinLength == 3, sourceLocation: sourceLocation)
    #expect(profile.validation.usernameMaxLength == 30, sourceLocation: sourceLocation)
    #expect(profile.validation.usernamePattern == nil, sourceLocation: sourceLocation)
    #expect(profile.rememberAccountDays == 7, sourceLocation: sourceLocation)
    #expect(profile.refreshMarginSeconds == 60, sourceLocation: sourceLocation)
  }
}
