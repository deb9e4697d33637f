/// A one-time code: exactly `length` ASCII digits. Never reported back (`value` stays nil): a code is a secret
/// like a password, and a validation answer may be logged by a host.
enum CodeRule {
  static func check(_ trimmed: Substring, length: Int) -> RuleOutcome {
    RuleOutcome(value: nil, codes: codes(trimmed.utf8, length: length))
  }

  /// The rule on the trimmed input's UTF-8 bytes.
  static func codes(_ bytes: some Collection<UInt8>, length: Int) -> ValidationCodeSet {
    guard !bytes.isEmpty else { return .required }
    var codes = ValidationCodeSet()
    codes.insert(.invalidCharacters, if: !bytes.allSatisfy(ASCII.isDigit))
    codes.insert(.tooShort, if: bytes.count < length)
    codes.insert(.tooLong, if: bytes.count > length)
    return codes
  }
}
