/// A one-time code: exactly `length` ASCII digits. Never reported back (`value` stays nil): a code is a secret
/// like a password, and a validation answer may be logged by a host.
enum CodeRule {
  static func check(_ trimmed: Substring, length: Int) -> RuleOutcome {
    var codes = ValidationCodeSet()
    guard !trimmed.isEmpty else {
      codes.insert(.required)
      return RuleOutcome(value: nil, codes: codes)
    }
    let bytes = trimmed.utf8
    codes.insert(.invalidCharacters, if: !bytes.allSatisfy(ASCII.isDigit))
    codes.insert(.tooShort, if: bytes.count < length)
    codes.insert(.tooLong, if: bytes.count > length)
    return RuleOutcome(value: nil, codes: codes)
  }
}
