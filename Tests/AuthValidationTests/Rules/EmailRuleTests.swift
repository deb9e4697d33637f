import Testing

@testable import AuthValidation

@Suite struct EmailRuleTests {
  static let valid = [
    "alice@example.com", "a@b.co", "a.b+c_d%e-f@sub.example.org", "x@a-b.cd", "1@2.io", "ALICE@example.com",
    "o-brien@example.com", "a@b-c-d.e-f.museum", "user+tag@mail.example.travel",
    "a@b." + Fixtures.repeated("c", 64),
  ]

  static let malformed = [
    "plainaddress", "@example.com", "alice@", "alice@example", "alice@example.c", "alice@example.c0m",
    "alice@example.123", "alice@.example.com", "alice@example..com", "alice@-example.com", "alice@example-.com",
    "alice@sub.-example.com", ".alice@example.com", "alice.@example.com", "al..ice@example.com",
    "alice@@example.com", "a@b@example.com", "al ice@example.com", "alice@exa mple.com", "alice@example.com.", "alice@example.co-m", "alice@example.xn--p1ai", "alice@example.c_m",
    "alice@example_1.com", "alice(comment)@example.com", "\"alice\"@example.com", "alice@[127.0.0.1]",
    "alice@example.com\u{0}", "alice@b." + Fixtures.repeated("c", 65), Fixtures.repeated("a", 65) + "@example.com",
    "alice@", "@", "a@b.c", "alice@example.com@",
  ]

  @Test(arguments: ValidationPurpose.allCases)
  func wellFormedAddressesAreValid(purpose: ValidationPurpose) {
    for email in Self.valid {
      #expect(Fixtures.codes(.email, email, purpose: purpose) == [], "\(email)")
    }
  }

  /// RFC 6531 addresses: local parts and domains in any script.
  static let international = [
    "张伟@example.com", "josé@exämple.org", "ålice@example.com", "用户@例子.中国", "почта@пример.рф",
    "θέμα@παράδειγμα.ελ", "उपयोगकर्ता@उदाहरण.भारत",
  ]

  /// Still malformed in any script: white space, a trailing ideographic full stop, a top-level domain of (full-width)
  /// digits, a symbol in a domain label.
  static let internationalMalformed = ["张 伟@example.com", "张伟@例子.com。", "张伟@例子.１２", "张伟@例★子.com"]

  @Test func malformedAddressesAreInvalidFormatAtRegistration() {
    for email in Self.malformed + Self.internationalMalformed {
      #expect(Fixtures.codes(.email, email, purpose: .register) == [.invalidFormat], "\(email)")
    }
  }

  /// A login never refuses an address the server could accept: presence and length only.
  @Test func aLoginChecksPresenceAndLengthOnly() throws {
    for email in Self.malformed + Self.internationalMalformed + Self.international {
      #expect(Fixtures.codes(.email, email, purpose: .login) == [], "\(email)")
    }
    let strict = try ValidationPolicy(emailUnicode: false)
    #expect(Fixtures.codes(.email, "张伟@example.com", purpose: .login, policy: strict) == [])
    #expect(Fixtures.codes(.email, "", purpose: .login) == [.required])
  }

  @Test func internationalAddressesRegisterByDefault() {
    for email in Self.international {
      #expect(Fixtures.codes(.email, email, purpose: .register) == [], "\(email)")
    }
  }

  @Test func emailUnicodeFalseKeepsRegistrationASCII() throws {
    let strict = try ValidationPolicy(emailUnicode: false)
    for email in Self.international {
      #expect(Fixtures.codes(.email, email, purpose: .register, policy: strict) == [.invalidFormat], "\(email)")
    }
    for email in Self.valid {
      #expect(Fixtures.codes(.email, email, purpose: .register, policy: strict) == [], "\(email)")
    }
  }

  @Test func aUnicodeDomainIsLowerCasedTheLocalPartKept() {
    #expect(Fixtures.report(.email, "Zhang.Wei@Пример.РФ").value == "Zhang.Wei@пример.рф")
    #expect(Fixtures.report(.email, "张伟@EXAMPLE.com").value == "张伟@example.com")
  }

  @Test(arguments: ValidationPurpose.allCases)
  func emptyOrBlankIsRequiredOnly(purpose: ValidationPurpose) {
    #expect(Fixtures.codes(.email, "", purpose: purpose) == [.required])
    #expect(Fixtures.codes(.email, " \t ", purpose: purpose) == [.required])
  }

  @Test func localPartBoundary() {
    #expect(Fixtures.codes(.email, Fixtures.repeated("a", 64) + "@example.com") == [])
    #expect(Fixtures.codes(.email, Fixtures.repeated("a", 65) + "@example.com") == [.invalidFormat])
    // The limit counts octets, as RFC 6531 keeps it: 21 three-byte characters fit, 22 do not.
    #expect(Fixtures.codes(.email, Fixtures.repeated("张", 21) + "@example.com") == [])
    #expect(Fixtures.codes(.email, Fixtures.repeated("张", 22) + "@example.com") == [.invalidFormat])
  }

  @Test(arguments: ValidationPurpose.allCases)
  func lengthCapIs254CodePoints(purpose: ValidationPurpose) {
    #expect(Fixtures.codes(.email, address(length: 254), purpose: purpose) == [])
    #expect(Fixtures.codes(.email, address(length: 255), purpose: purpose) == [.tooLong])
  }

  @Test func tooLongAndMalformedAreBothListed() {
    #expect(Fixtures.codes(.email, Fixtures.repeated("a", 300)) == [.tooLong, .invalidFormat])
    // 254 code points in 255 bytes is within the cap, which counts code points; 255 code points are not.
    let accentedAtCap = "é" + address(length: 254).dropFirst()
    #expect(accentedAtCap.utf8.count == 255)
    // "é" makes the 64-character local part 65 octets, one over its own limit.
    #expect(Fixtures.codes(.email, accentedAtCap) == [.invalidFormat])
    let accentedOverCap = "é" + address(length: 255).dropFirst()
    #expect(Fixtures.codes(.email, accentedOverCap) == [.tooLong, .invalidFormat])
  }

  @Test func domainIsLowerCasedAndLocalPartKept() {
    let report = Fixtures.report(.email, "  Alice.Smith@Example.COM \n")
    #expect(report.valid)
    #expect(report.value == "Alice.Smith@example.com")
  }

  @Test func valueIsNormalizedEvenWhenInvalid() {
    #expect(Fixtures.report(.email, " Alice@Example ").value == "Alice@example")
    #expect(Fixtures.report(.email, "NoAtSign").value == "NoAtSign")
  }

  @Test func lengthIsCheckedAfterTrimming() {
    #expect(Fixtures.codes(.email, "   " + address(length: 254) + "   ") == [])
  }

  /// A well-formed address of exactly `length` ASCII characters.
  private func address(length: Int) -> String {
    let local = Fixtures.repeated("l", 64) + "@"
    let tld = ".com"
    let middle = length - local.count - tld.count
    // Labels of at most 50 characters, so the domain stays well formed at any length.
    var domain = ""
    while domain.count < middle {
      if !domain.isEmpty { domain += "." }
      domain += Fixtures.repeated("d", min(50, max(1, middle - domain.count)))
    }
    let result = local + domain + tld
    precondition(result.count == length && EmailRule.isWellFormed(result.utf8), "\(result)")
    return result
  }
}
