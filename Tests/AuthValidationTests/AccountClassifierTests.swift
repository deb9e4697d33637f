import Testing

@testable import AuthValidation

@Suite struct AccountClassifierTests {
  @Test(arguments: [
    ("alice@example.com", AccountKind.email), ("@", .email), ("not an email@", .email), ("13800138000", .phone),
    ("+1 415 555 2671", .phone), ("(415) 555-2671", .phone), ("12345678", .phone), ("+12345678", .phone),
    ("1234.5678", .phone), ("1234567", .username), ("+1234567", .username), ("alice", .username),
    ("alice123", .username), ("1+2345678", .username), ("+", .username), ("", .username),
    ("12345678a", .username), ("１２３４５６７８", .username), ("1234 5678 ext", .username), ("++12345678", .username),
    ("+ 1 2 3 4 5 6 7 8", .phone),
  ])
  func classification(account: String, expected: AccountKind) {
    #expect(AccountClassifier.classify(account[...]) == expected)
    #expect(Fixtures.report(.account, account).kind == expected)
  }

  @Test func accountIsTrimmedBeforeClassification() {
    let report = Fixtures.report(.account, "  13800138000 \n")
    #expect(report.kind == .phone)
    #expect(report.valid)
    #expect(report.value == "+8613800138000")
  }

  @Test(arguments: ValidationPurpose.allCases)
  func emailAccountsFollowTheEmailRules(purpose: ValidationPurpose) {
    let report = Fixtures.report(.account, " Bob@Example.COM ", purpose: purpose)
    #expect(report.kind == .email)
    #expect(report.valid)
    #expect(report.value == "Bob@example.com")
    // A login leaves the format to the server (see EmailRuleTests).
    #expect(Fixtures.codes(.account, "bob@", purpose: purpose) == (purpose == .login ? [] : [.invalidFormat]))
    let long = Fixtures.repeated("a", 64) + "@" + Fixtures.repeated("b", 186) + ".com"
    #expect(Fixtures.codes(.account, long, purpose: purpose) == [.tooLong])
  }

  @Test(arguments: ValidationPurpose.allCases)
  func phoneAccountsFollowThePhoneRules(purpose: ValidationPurpose) {
    let report = Fixtures.report(.account, "+44 20 7946 0958", purpose: purpose)
    #expect(report.kind == .phone)
    #expect(report.value == "+442079460958")
    #expect(Fixtures.codes(.account, "12345678", purpose: purpose) == [.invalidFormat])
    #expect(Fixtures.report(.account, "(415) 555-2671", purpose: purpose).value == "4155552671")
  }

  @Test func usernameAccountsFollowTheUsernameRulesAndPolicy() throws {
    #expect(Fixtures.codes(.account, "ab") == [.tooShort])
    #expect(Fixtures.codes(.account, "ab", purpose: .login) == [])
    #expect(Fixtures.codes(.account, "1234567") == [])
    #expect(Fixtures.codes(.account, "+1234567") == [.invalidCharacters])
    #expect(Fixtures.codes(.account, Fixtures.repeated("a", 31), purpose: .login) == [.tooLong])
    #expect(Fixtures.codes(.account, "bob smith", purpose: .login) == [.invalidCharacters])
    let policy = try Fixtures.policy(usernameMin: 6, pattern: "[a-z]+")
    #expect(Fixtures.codes(.account, "Alice", policy: policy) == [.tooShort, .invalidCharacters])
    #expect(Fixtures.codes(.account, "alicia", policy: policy) == [])
  }

  @Test(arguments: ValidationPurpose.allCases)
  func emptyAccountIsRequired(purpose: ValidationPurpose) {
    for account in ["", "   "] {
      let report = Fixtures.report(.account, account, purpose: purpose)
      #expect(report.codes == [.required])
      #expect(report.kind == .username)
      #expect(report.issues.first?.message == "Account is required.")
    }
  }

  @Test func accountMessagesNameTheFieldAndFollowTheKind() {
    let email = Fixtures.report(.account, "bob@")
    #expect(email.issues.map(\.message) == ["Account is not a valid email address."])
    let phone = Fixtures.report(.account, "12345678", locale: .zhHans)
    #expect(phone.issues.map(\.message) == ["账号不是有效的手机号。"])
    let username = Fixtures.report(.account, "ab")
    #expect(username.issues.map(\.message) == ["Account must be at least 3 characters."])
    let long = Fixtures.report(.account, Fixtures.repeated("a", 250) + "@b.cd")
    #expect(
      long.issues.map(\.message) == [
        "Account must be at most 254 characters.", "Account is not a valid email address.",
      ])
  }
}
