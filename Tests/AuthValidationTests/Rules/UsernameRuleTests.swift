import Testing

@testable import AuthValidation

@Suite struct UsernameRuleTests {
  @Test(arguments: ValidationPurpose.allCases)
  func validUsernames(purpose: ValidationPurpose) {
    for username in ["alice", "Bob_99", "a-b_c", "ABC", "x_-", "0123456789", Fixtures.repeated("z", 30)] {
      let report = Fixtures.report(.username, username, purpose: purpose)
      #expect(report.valid, "\(username)")
      #expect(report.issues.isEmpty)
      #expect(report.value == username)
      #expect(report.kind == nil)
    }
  }

  @Test(arguments: ValidationPurpose.allCases)
  func emptyOrBlankIsRequiredOnly(purpose: ValidationPurpose) {
    for username in ["", " ", "\t\n", "\u{3000}"] {
      let report = Fixtures.report(.username, username, purpose: purpose)
      #expect(report.codes == [.required])
      #expect(report.value == "")
    }
  }

  @Test(arguments: [
    (2, ValidationPurpose.register, [ValidationCode.tooShort]), (3, .register, []), (30, .register, []),
    (31, .register, [.tooLong]), (1, .login, []), (2, .login, []), (30, .login, []), (31, .login, [.tooLong]),
  ])
  func boundaryLengths(length: Int, purpose: ValidationPurpose, expected: [ValidationCode]) {
    #expect(Fixtures.codes(.username, Fixtures.repeated("a", length), purpose: purpose) == expected)
  }

  @Test(arguments: [
    "al ice", "alice!", "a.b", "a@b", "ålice", "用户名", "alice\u{0}", "a+b", "ｆｕｌｌ", "name\u{200B}",
  ])
  func charactersOutsideTheSetAreReportedInBothPurposes(username: String) {
    #expect(Fixtures.codes(.username, username, purpose: .register) == [.invalidCharacters])
    #expect(Fixtures.codes(.username, username, purpose: .login) == [.invalidCharacters])
  }

  @Test func everyFailedRuleIsListedInOrder() {
    #expect(Fixtures.codes(.username, "é") == [.tooShort, .invalidCharacters])
    #expect(Fixtures.codes(.username, Fixtures.repeated("é", 31)) == [.tooLong, .invalidCharacters])
    #expect(Fixtures.codes(.username, "é", purpose: .login) == [.invalidCharacters])
  }

  @Test func lengthCountsCodePointsNotCharactersOrBytes() {
    // One Character of five code points: long enough, though still not allowed.
    #expect(Fixtures.codes(.username, "👨‍👩‍👧") == [.invalidCharacters])
    // Two code points, eight UTF-8 bytes: too short.
    #expect(Fixtures.codes(.username, "👍👍") == [.tooShort, .invalidCharacters])
    // Thirty CJK code points (90 bytes) fit; thirty-one do not.
    #expect(Fixtures.codes(.username, Fixtures.repeated("名", 30)) == [.invalidCharacters])
    #expect(Fixtures.codes(.username, Fixtures.repeated("名", 31)) == [.tooLong, .invalidCharacters])
    // A base letter plus combining accent is two code points.
    #expect(Fixtures.codes(.username, "e\u{301}") == [.tooShort, .invalidCharacters])
    #expect(Fixtures.codes(.username, "ae\u{301}") == [.invalidCharacters])
  }

  @Test func valueIsTrimmed() {
    let report = Fixtures.report(.username, " \t alice\u{00A0}\u{3000}\n")
    #expect(report.valid)
    #expect(report.value == "alice")
  }

  @Test func trimmingHappensBeforeCounting() {
    #expect(Fixtures.codes(.username, "  ab  ") == [.tooShort])
    #expect(Fixtures.codes(.username, "   " + Fixtures.repeated("a", 30) + "   ") == [])
  }

  @Test func customLengths() throws {
    let policy = try Fixtures.policy(usernameMin: 5, usernameMax: 8)
    #expect(Fixtures.codes(.username, "abcd", policy: policy) == [.tooShort])
    #expect(Fixtures.codes(.username, "abcde", policy: policy) == [])
    #expect(Fixtures.codes(.username, "abcdefgh", policy: policy) == [])
    #expect(Fixtures.codes(.username, "abcdefghi", policy: policy) == [.tooLong])
    #expect(Fixtures.codes(.username, "abcd", purpose: .login, policy: policy) == [])
    #expect(Fixtures.codes(.username, "abcdefghi", purpose: .login, policy: policy) == [.tooLong])
    let report = Fixtures.report(.username, "abcd", policy: policy)
    #expect(report.issues.first?.message == "Username must be at least 5 characters.")
  }

  @Test func patternReplacesTheCharacterRule() throws {
    let policy = try Fixtures.policy(pattern: "[a-z][a-z0-9.]*")
    #expect(Fixtures.codes(.username, "alice.b2", policy: policy) == [])
    #expect(Fixtures.codes(.username, "Alice", policy: policy) == [.invalidCharacters])
    #expect(Fixtures.codes(.username, "2alice", policy: policy) == [.invalidCharacters])
    // Underscores pass the default rule but not this pattern.
    #expect(Fixtures.codes(.username, "al_ice", policy: policy) == [.invalidCharacters])
    #expect(Fixtures.codes(.username, "Alice", purpose: .login, policy: policy) == [.invalidCharacters])
  }

  @Test func patternMustMatchTheWholeTrimmedUsername() throws {
    let policy = try Fixtures.policy(pattern: "[a-z]+")
    #expect(Fixtures.codes(.username, "abc1", policy: policy) == [.invalidCharacters])
    #expect(Fixtures.codes(.username, "1abc", policy: policy) == [.invalidCharacters])
    #expect(Fixtures.codes(.username, "  abc  ", policy: policy) == [])
  }

  @Test func patternCanAllowWhatTheDefaultRuleRejects() throws {
    let policy = try Fixtures.policy(pattern: #"[\p{L}\p{N}_.]+"#)
    #expect(Fixtures.codes(.username, "用户名", policy: policy) == [])
    #expect(Fixtures.codes(.username, "josé.garcía", policy: policy) == [])
    #expect(Fixtures.codes(.username, "a b c", policy: policy) == [.invalidCharacters])
  }

  @Test func patternKeepsLengthRules() throws {
    let policy = try Fixtures.policy(pattern: ".*")
    #expect(Fixtures.codes(.username, "ab", policy: policy) == [.tooShort])
    #expect(Fixtures.codes(.username, Fixtures.repeated("b", 31), policy: policy) == [.tooLong])
    #expect(Fixtures.codes(.username, "", policy: policy) == [.required])
  }

  @Test func patternMessageDoesNotClaimTheDefaultCharacterSet() throws {
    let policy = try Fixtures.policy(pattern: "[a-z]+")
    let english = Fixtures.report(.username, "ABC", policy: policy)
    let chinese = Fixtures.report(.username, "ABC", policy: policy, locale: .zhHans)
    #expect(english.issues.first?.message == "Username is not in the allowed format.")
    #expect(chinese.issues.first?.message == "用户名格式不符合要求。")
  }

  @Test func validatorsWithAPatternAreSafeToShare() async throws {
    let validator = Validator(policy: try Fixtures.policy(pattern: "[a-z]+"))
    await withTaskGroup(of: Bool.self) { group in
      for index in 0..<64 {
        group.addTask {
          let username = index.isMultiple(of: 2) ? "alice" : "Alice"
          let report = validator.validate(ValidationInput(username: username))
          return report.valid == index.isMultiple(of: 2)
        }
      }
      for await correct in group {
        #expect(correct)
      }
    }
  }
}
