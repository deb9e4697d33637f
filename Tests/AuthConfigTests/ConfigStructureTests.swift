import Testing

@testable import AuthConfig

/// The shape of the document: the root, `profiles`, profile names, unknown and repeated keys.
@Suite struct ConfigStructureTests {
  static func expect(
    _ text: String, path: String, message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let error = ConfigFixtures.error(text, sourceLocation: sourceLocation)
    #expect(error?.kind == .invalidSetting, sourceLocation: sourceLocation)
    #expect(error?.jsonPath == path, sourceLocation: sourceLocation)
    #expect(error?.message == message, sourceLocation: sourceLocation)
  }

  @Test(arguments: [
    ("[]", "an array"), (#""profiles""#, "a string"), ("null", "null"), ("42", "a number"), ("true", "a boolean"),
  ])
  func theRootMustBeAnObject(text: String, type: String) {
    Self.expect(text, path: "", message: "must be an object, not \(type)")
    #expect(ConfigFixtures.error(text)?.description == "\(ConfigFixtures.file): must be an object, not \(type)")
  }

  @Test func profilesIsRequired() {
    Self.expect("{}", path: "profiles", message: "is required: an object of profiles by name")
  }

  @Test func profilesMustBeAnObject() {
    Self.expect(#"{"profiles": [{"provider": "local"}]}"#, path: "profiles", message: "must be an object, not an array")
  }

  @Test func profilesMustNotBeEmpty() {
    Self.expect(#"{"profiles": {}}"#, path: "profiles", message: "must contain at least one profile")
  }

  @Test func aProfileMustBeAnObject() {
    Self.expect(#"{"profiles": {"work": "local"}}"#, path: "profiles.work", message: "must be an object, not a string")
  }

  static let nameRule = "is not a valid profile name: use 1 to 64 characters from A-Z a-z 0-9 _ . -"

  @Test(arguments: [
    ("", #"profiles[""]"#), ("has space", #"profiles["has space"]"#), ("a/b", #"profiles["a/b"]"#),
    ("café", #"profiles["café"]"#), ("tab\there", #"profiles["tab\u{9}here"]"#),
    (String(repeating: "p", count: 65), #"profiles[""# + String(repeating: "p", count: 64) + #"…"]"#),
  ])
  func badProfileNames(name: String, path: String) {
    let escapedName = name.replacingOccurrences(of: "\t", with: "\\t")
    Self.expect(ConfigFixtures.profile(#""provider": "local""#, name: escapedName), path: path, message: Self.nameRule)
  }

  @Test func aProfileNameWithDotsIsQuotedInPaths() {
    Self.expect(
      ConfigFixtures.profile(#""provider": "local", "rememberAccountDays": 400"#, name: "eu.prod"),
      path: #"profiles["eu.prod"].rememberAccountDays"#, message: "must be an integer from 0 to 365")
  }

  // MARK: Unknown keys, at every level

  @Test func unknownKeyAtTheRoot() {
    Self.expect(
      #"{"profiles": {"default": {"provider": "local"}}, "profile": {}}"#, path: "profile",
      message: "unknown key; expected one of profiles, storage")
  }

  @Test func unknownKeyInAProfile() {
    Self.expect(
      ConfigFixtures.local(#""rememberAccountDay": 3"#), path: "profiles.default.rememberAccountDay",
      message:
        "unknown key; expected one of provider, validation, rememberAccountDays, refreshMarginSeconds, tls, codes, "
          + "local, rest, oauth2, form, simulated")
  }

  @Test func unknownKeyInValidation() {
    Self.expect(
      ConfigFixtures.validation(#""passwordMinLenght": 9"#), path: "profiles.default.validation.passwordMinLenght",
      message:
        "unknown key; expected one of passwordPreset, passwordMinLength, passwordMaxLength, usernameMinLength, "
        + "usernameMaxLength, usernamePattern, emailUnicode")
  }

  @Test func unknownKeyInLocal() {
    Self.expect(
      ConfigFixtures.localSettings(#""accessTokenTTL": 900"#), path: "profiles.default.local.accessTokenTTL",
      message: "unknown key; expected one of accessTokenTTLSeconds, refreshTokenTTLDays, codeDelivery")
  }

  @Test func keysAreCaseSensitive() {
    Self.expect(
      ConfigFixtures.profile(#""Provider": "local""#), path: "profiles.default.Provider",
      message:
        "unknown key; expected one of provider, validation, rememberAccountDays, refreshMarginSeconds, tls, codes, "
          + "local, rest, oauth2, form, simulated")
  }

  @Test func validationAndLocalMustBeObjects() {
    Self.expect(
      ConfigFixtures.local(#""validation": "strict""#), path: "profiles.default.validation",
      message: "must be an object, not a string")
    Self.expect(
      ConfigFixtures.local(#""local": null"#), path: "profiles.default.local", message: "must be an object, not null")
  }

  // MARK: Repeated keys, at every level

  @Test func repeatedKeyAtTheRoot() {
    let profiles = #""profiles": {"default": {"provider": "local"}}"#
    Self.expect("{\(profiles), \(profiles)}", path: "profiles", message: "appears more than once")
  }

  @Test func repeatedProfileName() {
    Self.expect(
      #"{"profiles": {"work": {"provider": "local"}, "work": {"provider": "local"}}}"#, path: "profiles.work",
      message: "appears more than once")
  }

  @Test func repeatedKeyInAProfile() {
    Self.expect(
      ConfigFixtures.local(#""rememberAccountDays": 1, "rememberAccountDays": 2"#),
      path: "profiles.default.rememberAccountDays", message: "appears more than once")
  }

  @Test func repeatedKeyInValidation() {
    Self.expect(
      ConfigFixtures.validation(#""passwordPreset": "standard", "passwordPreset": "classic""#),
      path: "profiles.default.validation.passwordPreset", message: "appears more than once")
  }

  @Test func repeatedKeyInLocal() {
    Self.expect(
      ConfigFixtures.localSettings(#""refreshTokenTTLDays": 1, "refreshTokenTTLDays": 1"#),
      path: "profiles.default.local.refreshTokenTTLDays", message: "appears more than once")
  }

  /// A repeat is reported even when a later key is also unknown: the repeat makes the object ambiguous first.
  @Test func repeatsAreReportedBeforeUnknownKeys() {
    Self.expect(
      ConfigFixtures.profile(#""bogus": 1, "provider": "local", "provider": "local""#),
      path: "profiles.default.provider", message: "appears more than once")
  }

  @Test func theFirstProblemInDocumentOrderIsReported() {
    let text = #"{"profiles": {"a": {"provider": "local", "rememberAccountDays": -1}, "b": {"provider": "x"}}}"#
    Self.expect(text, path: "profiles.a.rememberAccountDays", message: "must be an integer from 0 to 365")
  }
}
