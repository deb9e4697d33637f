import Testing

@testable import AuthValidation

/// A code field: exactly the profile's number of digits, reported without its value (a code is a secret).
@Suite struct CodeRuleTests {
  @Test(arguments: [
    ("123456", [ValidationCode]()), (" 123456 ", []), ("", [.required]), ("12345", [.tooShort]),
    ("1234567", [.tooLong]), ("12a456", [.invalidCharacters]), ("１２３４５６", [.tooLong, .invalidCharacters]),
  ])
  func sixDigitsByDefault(text: String, codes: [ValidationCode]) {
    let report = Validator().check(.code, text, purpose: .login, locale: .en)
    #expect(report.codes == codes)
    #expect(report.value == nil, "a code is never echoed")
  }

  @Test func theLengthFollowsThePolicyAndTheMessageSaysIt() throws {
    let validator = Validator(policy: ValidationPolicy.standard.withCodeLength(8))
    #expect(validator.check(.code, "12345678", purpose: .login, locale: .en).valid)
    let short = validator.check(.code, "123456", purpose: .login, locale: .en)
    #expect(short.issues.map(\.message) == ["Verification code is too short: enter all 8 digits."])
    let zh = validator.check(.code, "1234567890", purpose: .login, locale: .zhHans)
    #expect(zh.issues.map(\.message) == ["验证码太长，应为 8 位数字。"])
  }
}
