import AuthJSON
import AuthValidation
import Testing

@testable import AuthConfig

/// The `validation` object: types, the preset name, and `ValidationPolicy`'s errors pinned on the right key.
@Suite struct ValidationSettingTests {
  static let prefix = "profiles.default.validation."

  static func expect(
    _ body: String, key: String, message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let error = ConfigFixtures.error(ConfigFixtures.validation(body), sourceLocation: sourceLocation)
    #expect(error?.kind == .invalidSetting, sourceLocation: sourceLocation)
    #expect(error?.jsonPath == prefix + key, sourceLocation: sourceLocation)
    #expect(error?.message == message, sourceLocation: sourceLocation)
  }

  static let lengthKeys = ["passwordMinLength", "passwordMaxLength", "usernameMinLength", "usernameMaxLength"]

  @Test(arguments: lengthKeys)
  func lengthsBelowOneComeFromThePolicy(key: String) {
    Self.expect(#""\#(key)": 0"#, key: key, message: "must be an integer of at least 1")
    Self.expect(#""\#(key)": -3"#, key: key, message: "must be an integer of at least 1")
  }

  @Test(arguments: lengthKeys)
  func lengthsMustBeIntegers(key: String) {
    Self.expect(#""\#(key)": "8""#, key: key, message: "must be an integer of at least 1, not a string")
    Self.expect(#""\#(key)": 8.5"#, key: key, message: "must be an integer of at least 1")
    Self.expect(#""\#(key)": null"#, key: key, message: "must be an integer of at least 1, not null")
  }

  @Test func presetMustBeKnown() {
    Self.expect(#""passwordPreset": "nist""#, key: "passwordPreset", message: #"must be "standard" or "classic""#)
    Self.expect(#""passwordPreset": "Standard""#, key: "passwordPreset", message: #"must be "standard" or "classic""#)
  }

  @Test func presetMustBeAString() {
    Self.expect(#""passwordPreset": 1"#, key: "passwordPreset", message: "must be a string, not a number")
  }

  @Test func patternMustBeANonEmptyString() {
    Self.expect(
      #""usernamePattern": """#, key: "usernamePattern", message: "must not be empty; leave it out for the default")
    Self.expect(#""usernamePattern": ["a"]"#, key: "usernamePattern", message: "must be a string, not an array")
  }

  @Test func anInvalidPatternIsReportedWithoutQuotingIt() {
    let body = #""usernamePattern": "([a-z]+""#
    Self.expect(body, key: "usernamePattern", message: "is not a valid regular expression")
    #expect(ConfigFixtures.error(ConfigFixtures.validation(body))?.description.contains("[a-z]") == false)
  }

  @Test func bothBoundsSetButCrossed() {
    Self.expect(
      #""passwordMinLength": 20, "passwordMaxLength": 10"#, key: "passwordMinLength",
      message: "must not be greater than passwordMaxLength")
    Self.expect(
      #""usernameMinLength": 20, "usernameMaxLength": 10"#, key: "usernameMinLength",
      message: "must not be greater than usernameMaxLength")
  }

  @Test func aMinimumAboveTheDefaultMaximumNamesThePreset() {
    Self.expect(
      #""passwordPreset": "classic", "passwordMinLength": 100"#, key: "passwordMinLength",
      message: #"must not be greater than the default passwordMaxLength of the "classic" preset, 64"#)
    Self.expect(
      #""usernameMinLength": 31"#, key: "usernameMinLength",
      message: "must not be greater than the default usernameMaxLength, 30")
  }

  @Test func aMaximumBelowTheDefaultMinimumBlamesTheMaximum() {
    Self.expect(
      #""passwordMaxLength": 6"#, key: "passwordMaxLength",
      message: #"must not be less than the default passwordMinLength of the "standard" preset, 8"#)
    Self.expect(
      #""usernameMaxLength": 2"#, key: "usernameMaxLength",
      message: "must not be less than the default usernameMinLength, 3")
  }

  @Test func equalBoundsAreFine() throws {
    let text = ConfigFixtures.validation(#""passwordMinLength": 12, "passwordMaxLength": 12"#)
    let policy = try #require(try ConfigFixtures.parse(text).profile("default")).validation
    #expect(policy.passwordMinLength == 12)
    #expect(policy.passwordMaxLength == 12)
  }

  /// Each of the policy's reasons maps to a message on the key it names, without the policy's values or text.
  @Test func everyPolicyReasonMaps() throws {
    let fields: JSONObject = ["passwordMinLength": 99, "passwordMaxLength": 88]
    let object = try ConfigObject(.object(fields), at: JSONPath.root.appending("v"), allowedKeys: nil)
    let reasons: [(ValidationPolicyError, path: String, hidden: String)] = [
      (ValidationPolicyError(setting: "usernameMaxLength", reason: .lengthBelowOne(-77)), "v.usernameMaxLength", "77"),
      (
        ValidationPolicyError(setting: "usernamePattern", reason: .invalidPattern("EXPLAINED")), "v.usernamePattern",
        "EXPLAINED"
      ),
      (
        ValidationPolicyError(setting: "passwordMinLength", reason: .minimumAboveMaximum(minimum: 99, maximum: 88)),
        "v.passwordMinLength", "99"
      ),
    ]
    for (error, path, hidden) in reasons {
      let mapped = ValidationDecoder.settingError(for: error, in: object, preset: .standard)
      #expect(mapped.path.description == path)
      #expect(!mapped.message.contains(hidden))
    }
  }
}
