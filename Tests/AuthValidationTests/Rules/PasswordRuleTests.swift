import Testing

@testable import AuthValidation

@Suite struct PasswordRuleTests {
  // MARK: standard, register

  @Test(arguments: [
    (7, [ValidationCode.tooShort]), (8, []), (128, []), (129, [.tooLong]), (1, [.tooShort]), (1000, [.tooLong]),
  ])
  func standardBoundaries(length: Int, expected: [ValidationCode]) {
    #expect(Fixtures.codes(.password, Fixtures.repeated("k", length)) == expected)
  }

  @Test func lengthCountsCodePoints() {
    #expect(Fixtures.codes(.password, Fixtures.repeated("密", 7)) == [.tooShort])
    #expect(Fixtures.codes(.password, Fixtures.repeated("密", 8)) == [])
    #expect(Fixtures.codes(.password, Fixtures.repeated("👍", 8)) == [])
    #expect(Fixtures.codes(.password, Fixtures.repeated("👍", 128)) == [])
    #expect(Fixtures.codes(.password, Fixtures.repeated("👍", 129)) == [.tooLong])
    // Two Characters but ten code points.
    #expect(Fixtures.codes(.password, "👨‍👩‍👧👨‍👩‍👧") == [])
    // Seven Characters, eight code points.
    #expect(Fixtures.codes(.password, "abcdefe\u{301}") == [])
  }

  @Test func neverTrimmed() {
    #expect(Fixtures.codes(.password, " zq7Lm2v ") == [])
    #expect(Fixtures.codes(.password, "        ") == [])
    #expect(Fixtures.codes(.password, "   ") == [.tooShort])
    #expect(Fixtures.codes(.password, " ", purpose: .login) == [])
  }

  @Test(arguments: ["\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1B}", "\u{1F}", "\u{7F}"])
  func controlCharactersAreInvalid(control: String) {
    #expect(Fixtures.codes(.password, "zq7L" + control + "m2vX") == [.invalidCharacters])
  }

  @Test(arguments: ["\u{80}", "\u{9F}", "\u{A0}", "\u{200B}", "\u{FEFF}", "é", "密"])
  func otherCharactersAreAllowed(character: String) {
    #expect(Fixtures.codes(.password, "zq7L" + character + "m2vX") == [])
  }

  @Test(arguments: [
    "password", "PASSWORD", "PassWord", "12345678", "123456789", "qwertyuiop", "iloveyou", "password1", "11111111",
    "abc12345", "sunshine", "princess", "football", "baseball", "welcome1", "1q2w3e4r", "qwerty123", "zaq12wsx",
    "passw0rd", "P@ssw0rd", "88888888", "woaini1314", "1qaz2wsx", "Qwerty123",
  ])
  func commonPasswordsAreTooCommon(password: String) {
    #expect(Fixtures.codes(.password, password) == [.tooCommon])
  }

  @Test func shortCommonPasswordsListBothRules() {
    #expect(Fixtures.codes(.password, "123456") == [.tooShort, .tooCommon])
    #expect(Fixtures.codes(.password, "qwerty") == [.tooShort, .tooCommon])
  }

  @Test func shortCommonPasswordsMatterWhenTheMinimumIsLowered() throws {
    let policy = try Fixtures.policy(passwordMin: 6)
    #expect(Fixtures.codes(.password, "123456", policy: policy) == [.tooCommon])
    #expect(Fixtures.codes(.password, "zq7Lm2", policy: policy) == [])
  }

  @Test func uncommonPasswordsAreFine() {
    for password in ["correct horse battery staple", "password-but-longer", "zq7Lm2vX", "passwor", " password"] {
      #expect(!Fixtures.codes(.password, password).contains(.tooCommon), "\(password)")
    }
  }

  @Test func everyFailedRuleIsListedInOrder() {
    #expect(Fixtures.codes(.password, "ab\u{0}") == [.tooShort, .invalidCharacters])
    #expect(Fixtures.codes(.password, Fixtures.repeated("\u{1}", 129)) == [.tooLong, .invalidCharacters])
  }

  @Test(arguments: ValidationPurpose.allCases)
  func emptyIsRequiredOnly(purpose: ValidationPurpose) {
    #expect(Fixtures.codes(.password, "", purpose: purpose) == [.required])
    #expect(Fixtures.codes(.password, "", purpose: purpose, policy: .classic) == [.required])
  }

  @Test(arguments: PasswordPreset.allCases, ValidationPurpose.allCases)
  func valueIsNeverReported(preset: PasswordPreset, purpose: ValidationPurpose) throws {
    let policy = try ValidationPolicy(passwordPreset: preset)
    for password in ["", "a", "password", "zq7Lm2vX", Fixtures.repeated("x", 200)] {
      #expect(Fixtures.report(.password, password, purpose: purpose, policy: policy).value == nil)
    }
  }

  // MARK: classic, register

  @Test(arguments: [(7, [ValidationCode.tooShort]), (8, []), (64, []), (65, [.tooLong])])
  func classicBoundaries(length: Int, expected: [ValidationCode]) {
    let password = "a1" + Fixtures.repeated("b", length - 2)
    #expect(Fixtures.codes(.password, password, policy: .classic) == expected)
  }

  @Test(arguments: [
    ("abcdefgh", [ValidationCode.missingDigit]), ("12345678", [.missingLetter]),
    ("!!!!!!!!", [.missingLetter, .missingDigit]), ("abcd1234", []), ("password1", []), ("密码密码1234", []),
    ("ｐａｓｓ1234", []), ("ab1", [.tooShort]), ("\u{661}\u{662}\u{663}\u{664}abcd", [.missingDigit]),
    ("αβγδ5678", []), ("a\u{0}1bcdefg", [.invalidCharacters]), ("😀😀😀😀1234", [.missingLetter]),
    ("!", [.tooShort, .missingLetter, .missingDigit]),
  ])
  func classicCompositionRules(password: String, expected: [ValidationCode]) {
    #expect(Fixtures.codes(.password, password, policy: .classic) == expected)
  }

  @Test func classicListsEveryFailedRuleInOrder() {
    #expect(
      Fixtures.codes(.password, Fixtures.repeated("\u{1}", 70), policy: .classic) == [
        .tooLong, .invalidCharacters, .missingLetter, .missingDigit,
      ])
  }

  @Test func classicDoesNotCheckCommonPasswords() {
    #expect(Fixtures.codes(.password, "password1", policy: .classic) == [])
    #expect(Fixtures.codes(.password, "password", policy: .classic) == [.missingDigit])
  }

  @Test func customLengthsOverrideThePreset() throws {
    let policy = try Fixtures.policy(preset: .classic, passwordMin: 12, passwordMax: 16)
    #expect(Fixtures.codes(.password, "abcdefghij1", policy: policy) == [.tooShort])
    #expect(Fixtures.codes(.password, "abcdefghijk1", policy: policy) == [])
    #expect(Fixtures.codes(.password, "abcdefghijklmno1", policy: policy) == [])
    #expect(Fixtures.codes(.password, "abcdefghijklmnop1", policy: policy) == [.tooLong])
    #expect(Fixtures.codes(.password, "abcdefghijklmnop1", purpose: .login, policy: policy) == [.tooLong])
    let report = Fixtures.report(.password, "abcdefghij1", policy: policy, locale: .zhHans)
    #expect(report.issues.first?.message == "密码至少需要 12 个字符。")
  }

  // MARK: login

  @Test(arguments: PasswordPreset.allCases)
  func loginChecksOnlyPresenceAndTheLengthCap(preset: PasswordPreset) throws {
    let policy = try ValidationPolicy(passwordPreset: preset)
    let cap = policy.passwordMaxLength
    for password in ["1", "password", "12345678", "!!!!", "abc\u{0}def", Fixtures.repeated("a", cap)] {
      #expect(Fixtures.codes(.password, password, purpose: .login, policy: policy) == [], "\(password)")
    }
    #expect(Fixtures.codes(.password, Fixtures.repeated("a", cap + 1), purpose: .login, policy: policy) == [.tooLong])
    #expect(Fixtures.codes(.password, Fixtures.repeated("👍", cap + 1), purpose: .login, policy: policy) == [.tooLong])
  }
}
