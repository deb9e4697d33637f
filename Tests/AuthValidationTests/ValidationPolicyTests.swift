import Testing

@testable import AuthValidation

@Suite struct ValidationPolicyTests {
  @Test func standardDefaults() {
    let policy = ValidationPolicy.standard
    #expect(policy.passwordPreset == .standard)
    #expect(policy.passwordMinLength == 8)
    #expect(policy.passwordMaxLength == 128)
    #expect(policy.usernameMinLength == 3)
    #expect(policy.usernameMaxLength == 30)
    #expect(policy.usernamePattern == nil)
  }

  @Test func classicDefaults() {
    let policy = ValidationPolicy.classic
    #expect(policy.passwordPreset == .classic)
    #expect(policy.passwordMinLength == 8)
    #expect(policy.passwordMaxLength == 64)
    #expect(policy.usernameMinLength == 3)
    #expect(policy.usernameMaxLength == 30)
  }

  @Test(arguments: PasswordPreset.allCases)
  func lengthsLeftOutFollowThePreset(preset: PasswordPreset) throws {
    let policy = try ValidationPolicy(passwordPreset: preset)
    #expect(policy.passwordMinLength...policy.passwordMaxLength == preset.defaultLengthRange)
    #expect(policy.usernameMinLength...policy.usernameMaxLength == 3...30)
  }

  @Test func explicitLengthsOverrideThePreset() throws {
    let policy = try Fixtures.policy(
      preset: .classic, passwordMin: 10, passwordMax: 200, usernameMin: 1, usernameMax: 50, pattern: "[a-z]+")
    #expect(policy.passwordPreset == .classic)
    #expect(policy.passwordMinLength == 10)
    #expect(policy.passwordMaxLength == 200)
    #expect(policy.usernameMinLength == 1)
    #expect(policy.usernameMaxLength == 50)
    #expect(policy.usernamePattern == "[a-z]+")
  }

  @Test func oneExplicitBoundKeepsTheOtherDefault() throws {
    let policy = try Fixtures.policy(preset: .classic, passwordMin: 12)
    #expect(policy.passwordMinLength == 12)
    #expect(policy.passwordMaxLength == 64)
  }

  @Test func minimumEqualToMaximumIsAllowed() throws {
    let policy = try Fixtures.policy(passwordMin: 20, passwordMax: 20, usernameMin: 5, usernameMax: 5)
    #expect(policy.passwordMinLength == policy.passwordMaxLength)
    #expect(policy.usernameMinLength == policy.usernameMaxLength)
  }

  @Test(arguments: [
    ("passwordMinLength", 0), ("passwordMinLength", -1), ("passwordMaxLength", 0), ("usernameMinLength", 0),
    ("usernameMaxLength", -5),
  ])
  func lengthsBelowOneAreRejected(setting: String, value: Int) {
    #expect(throws: ValidationPolicyError(setting: setting, reason: .lengthBelowOne(value))) {
      try ValidationPolicy(
        passwordMinLength: setting == "passwordMinLength" ? value : nil,
        passwordMaxLength: setting == "passwordMaxLength" ? value : nil,
        usernameMinLength: setting == "usernameMinLength" ? value : nil,
        usernameMaxLength: setting == "usernameMaxLength" ? value : nil
      )
    }
  }

  @Test func passwordMinimumAboveMaximumIsRejected() {
    #expect(
      throws: ValidationPolicyError(
        setting: "passwordMinLength", reason: .minimumAboveMaximum(minimum: 20, maximum: 10))
    ) {
      try Fixtures.policy(passwordMin: 20, passwordMax: 10)
    }
  }

  @Test func minimumAboveThePresetMaximumIsRejected() {
    #expect(
      throws: ValidationPolicyError(
        setting: "passwordMinLength", reason: .minimumAboveMaximum(minimum: 70, maximum: 64))
    ) {
      try Fixtures.policy(preset: .classic, passwordMin: 70)
    }
  }

  @Test func usernameMinimumAboveMaximumIsRejected() {
    #expect(
      throws: ValidationPolicyError(
        setting: "usernameMinLength", reason: .minimumAboveMaximum(minimum: 4, maximum: 2))
    ) {
      try Fixtures.policy(usernameMin: 4, usernameMax: 2)
    }
  }

  @Test(arguments: ["(", "[a-", "a{2,1}", "(?<=a+)b", "*"])
  func patternsThatDoNotCompileAreRejected(pattern: String) {
    let error = #expect(throws: ValidationPolicyError.self) {
      try Fixtures.policy(pattern: pattern)
    }
    #expect(error?.setting == "usernamePattern")
    guard case .invalidPattern(let explanation) = error?.reason else {
      Issue.record("expected invalidPattern, got \(String(describing: error?.reason))")
      return
    }
    #expect(!explanation.isEmpty)
  }

  @Test func errorDescriptionsNameTheSetting() {
    let errors = [
      ValidationPolicyError(setting: "passwordMinLength", reason: .lengthBelowOne(0)),
      ValidationPolicyError(setting: "usernameMinLength", reason: .minimumAboveMaximum(minimum: 9, maximum: 3)),
      ValidationPolicyError(setting: "usernamePattern", reason: .invalidPattern("expected ')'")),
    ]
    #expect(errors[0].description == "passwordMinLength must be at least 1, not 0")
    #expect(errors[1].description == "usernameMinLength (9) must not be greater than the maximum length (3)")
    #expect(errors[2].description == "usernamePattern is not a valid regular expression: expected ')'")
  }
}
