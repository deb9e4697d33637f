import Testing

@testable import AuthValidation

@Suite struct PhoneRuleTests {
  @Test(arguments: [
    ("+14155552671", "+14155552671"), ("+1 415 555 2671", "+14155552671"), ("+1 (415) 555-2671", "+14155552671"),
    ("+44 20 7946 0958", "+442079460958"), ("+86.138.0013.8000", "+8613800138000"), ("+12345678", "+12345678"),
    ("+123456789012345", "+123456789012345"), ("  +33 1 23 45 67 89\n", "+33123456789"),
    ("(+49) 30-1234567", "+49301234567"),
  ])
  func internationalNumbersNormalizeToE164(input: String, expected: String) {
    for purpose in ValidationPurpose.allCases {
      let report = Fixtures.report(.phone, input, purpose: purpose)
      #expect(report.valid, "\(input)")
      #expect(report.value == expected)
    }
  }

  @Test(arguments: [
    ("13800138000", "+8613800138000"), ("138 0013 8000", "+8613800138000"), ("138-0013-8000", "+8613800138000"),
    ("(138) 0013.8000", "+8613800138000"), ("19912345678", "+8619912345678"), ("14155552671", "+8614155552671"),
    (" 15012345678 ", "+8615012345678"),
  ])
  func chinaMobileNumbersGainTheCountryCode(input: String, expected: String) {
    for purpose in ValidationPurpose.allCases {
      let report = Fixtures.report(.phone, input, purpose: purpose)
      #expect(report.valid, "\(input)")
      #expect(report.value == expected)
    }
  }

  @Test(arguments: [
    ("+1234567", "+1234567"), ("+1234567890123456", "+1234567890123456"), ("+0123456789", "+0123456789"),
    ("12345678901", "12345678901"), ("10012345678", "10012345678"), ("1380013800", "1380013800"),
    ("138001380001", "138001380001"), ("4155552671", "4155552671"), ("++14155552671", "++14155552671"),
    ("+1 415 555 267a", "+1415555267a"), ("+1/4155552671", "+1/4155552671"), ("+1\t4155552671", "+1\t4155552671"),
    ("1380013800+", "1380013800+"), ("１３８００１３８０００", "１３８００１３８０００"), ("abc", "abc"), ("-", ""),
    ("( )", ""), ("+", "+"), ("8613800138000", "8613800138000"), ("+86 138 0013 800٠", "+861380013800٠"),
  ])
  func otherInputIsInvalidFormatWithSeparatorsRemoved(input: String, expected: String) {
    for purpose in ValidationPurpose.allCases {
      let report = Fixtures.report(.phone, input, purpose: purpose)
      #expect(report.codes == [.invalidFormat], "\(input)")
      #expect(report.value == expected)
    }
  }

  @Test(arguments: ValidationPurpose.allCases)
  func emptyOrBlankIsRequiredOnly(purpose: ValidationPurpose) {
    #expect(Fixtures.codes(.phone, "", purpose: purpose) == [.required])
    #expect(Fixtures.codes(.phone, "  \u{3000}", purpose: purpose) == [.required])
  }

  @Test func e164DigitCountBoundaries() {
    #expect(Fixtures.codes(.phone, "+" + Fixtures.repeated("1", 7)) == [.invalidFormat])
    #expect(Fixtures.codes(.phone, "+" + Fixtures.repeated("1", 8)) == [])
    #expect(Fixtures.codes(.phone, "+" + Fixtures.repeated("1", 15)) == [])
    #expect(Fixtures.codes(.phone, "+" + Fixtures.repeated("1", 16)) == [.invalidFormat])
  }

  @Test(arguments: Array(0...9))
  func chinaMobileSecondDigit(digit: Int) {
    let number = "1\(digit)012345678"
    #expect(Fixtures.codes(.phone, number) == (digit >= 3 ? [] : [.invalidFormat]))
  }
}
