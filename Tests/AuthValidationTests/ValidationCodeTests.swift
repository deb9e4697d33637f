import Testing

@testable import AuthValidation

@Suite struct ValidationCodeTests {
  @Test func rawValuesAreTheStableWireCodes() {
    #expect(
      ValidationCode.allCases.map(\.rawValue) == [
        "required", "too_short", "too_long", "invalid_characters", "invalid_format", "missing_letter",
        "missing_digit", "too_common",
      ])
  }

  @Test func fieldNamesAreInCanonicalOrder() {
    #expect(FieldName.allCases.map(\.rawValue) == ["account", "username", "email", "phone", "password", "code"])
  }

  @Test func enumsParseFromTheirWireNames() {
    #expect(ValidationPurpose(rawValue: "login") == .login)
    #expect(ValidationPurpose(rawValue: "register") == .register)
    #expect(ValidationPurpose(rawValue: "Login") == nil)
    #expect(PasswordPreset(rawValue: "classic") == .classic)
    #expect(AccountKind.allCases.map(\.rawValue) == ["email", "phone", "username"])
  }

  @Test(arguments: ValidationCode.allCases)
  func codeSetHoldsEachCodeAlone(code: ValidationCode) {
    let set = ValidationCodeSet(code)
    #expect(set.codes == [code])
    #expect(set.contains(code))
    #expect(!set.isEmpty)
  }

  @Test func codeSetIteratesInRuleOrderWhateverTheInsertionOrder() {
    var set = ValidationCodeSet()
    for code in ValidationCode.allCases.reversed() {
      set.insert(code)
    }
    #expect(set.codes == ValidationCode.allCases)
  }

  @Test func conditionalInsertOnlyInsertsFailures() {
    var set = ValidationCodeSet()
    set.insert(.tooLong, if: false)
    #expect(set.isEmpty)
    set.insert(.tooLong, if: true)
    #expect(set.codes == [.tooLong])
  }
}
