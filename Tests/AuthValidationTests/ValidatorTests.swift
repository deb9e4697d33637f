import AuthValidation
import Testing

@Suite struct ValidatorTests {
  let validator = Validator()

  @Test func reportsEveryFieldSentInCanonicalOrder() {
    let input = ValidationInput(
      account: "alice@example.com", username: "alice", email: "alice@example.com", phone: "13800138000",
      password: "zq7Lm2vX", code: "123456")
    let report = validator.validate(input, purpose: .register, locale: .en)
    #expect(report.fields.map(\.field) == FieldName.allCases)
    #expect(report.valid)
    #expect(report.fields.allSatisfy { $0.valid })
  }

  @Test func reportsOnlyTheFieldsSent() {
    let report = validator.validate(ValidationInput(phone: "13800138000", password: "x"), purpose: .login, locale: .en)
    #expect(report.fields.map(\.field) == [.phone, .password])
    #expect(report[.phone]?.value == "+8613800138000")
    #expect(report[.username] == nil)
  }

  @Test func anEmptyFieldIsSentButAMissingOneIsNot() {
    let report = validator.validate(ValidationInput(username: ""))
    #expect(report.fields.map(\.field) == [.username])
    #expect(report[.username]?.codes == [.required])
  }

  @Test func noFieldsGivesAnEmptyValidReport() {
    // The request layer rejects this as invalid params before it gets here.
    #expect(ValidationInput().isEmpty)
    let report = validator.validate(ValidationInput())
    #expect(report.fields.isEmpty)
    #expect(report.valid)
  }

  @Test func oneInvalidFieldMakesTheReportInvalid() {
    let report = validator.validate(ValidationInput(username: "alice", password: "short"))
    #expect(!report.valid)
    #expect(report[.username]?.valid == true)
    #expect(report[.password]?.valid == false)
    #expect(
      report[.password]?.issues == [FieldIssue(code: .tooShort, message: "Password must be at least 8 characters.")])
  }

  @Test func kindIsOnlyReportedForAccount() {
    let input = ValidationInput(account: "alice", username: "alice", email: "a@b.co", phone: "+12345678", password: "p")
    let report = validator.validate(input, purpose: .login, locale: .en)
    #expect(report[.account]?.kind == .username)
    for field in [FieldName.username, .email, .phone, .password] {
      #expect(report[field]?.kind == nil)
    }
  }

  @Test func passwordValueIsNeverReported() {
    let report = validator.validate(ValidationInput(password: "zq7Lm2vX"))
    #expect(report[.password]?.value == nil)
  }

  @Test func localeSelectsTheMessages() {
    let input = ValidationInput(password: "short")
    let english = validator.validate(input, purpose: .register, locale: .en)
    let chinese = validator.validate(input, purpose: .register, locale: MessageLocale(tag: "zh-CN"))
    #expect(english[.password]?.issues.first?.message == "Password must be at least 8 characters.")
    #expect(chinese[.password]?.issues.first?.message == "密码至少需要 8 个字符。")
  }

  @Test func defaultsAreRegisterAndEnglish() {
    let report = validator.validate(ValidationInput(username: "ab"))
    #expect(
      report[.username]?.issues == [FieldIssue(code: .tooShort, message: "Username must be at least 3 characters.")])
  }

  @Test func loginSkipsTheFullPolicyRules() {
    let input = ValidationInput(account: "ab", username: "ab", password: "password")
    #expect(validator.validate(input, purpose: .login, locale: .en).valid)
    let register = validator.validate(input, purpose: .register, locale: .en)
    #expect(register.fields.map(\.codes) == [[.tooShort], [.tooShort], [.tooCommon]])
  }

  @Test func checkValidatesOneField() {
    let report = validator.check(.account, " 138 0013 8000 ", purpose: .login, locale: .zhHans)
    #expect(report.field == .account)
    #expect(report.kind == .phone)
    #expect(report.value == "+8613800138000")
    #expect(report.valid)
  }

  @Test func validatorKeepsItsPolicy() throws {
    let policy = try ValidationPolicy(passwordPreset: .classic, usernameMaxLength: 12)
    let validator = Validator(policy: policy)
    #expect(validator.policy.passwordPreset == .classic)
    #expect(validator.policy.usernameMaxLength == 12)
    let report = validator.validate(ValidationInput(username: "abcdefghijklm", password: "abcdefgh"))
    #expect(report.fields.map(\.codes) == [[.tooLong], [.missingDigit]])
    #expect(report[.username]?.issues.first?.message == "Username must be at most 12 characters.")
  }

  @Test func inputCanBeFilledByFieldName() {
    var input = ValidationInput()
    for field in FieldName.allCases {
      input[field] = field.rawValue
    }
    #expect(
      input
        == ValidationInput(
          account: "account", username: "username", email: "email", phone: "phone", password: "password",
          code: "code"))
    for field in FieldName.allCases {
      #expect(input[field] == field.rawValue)
    }
    input[.email] = nil
    #expect(input.email == nil)
  }
}
