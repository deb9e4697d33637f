/// A contact shown back to the user so they recognise where a code went, without the answer disclosing it:
/// `+86 138****5678`, `a***@example.com`; anything else (a username) shows nothing of itself.
package enum ContactMask {
  package static func mask(_ contact: String) -> String {
    if contact.hasPrefix("+") { return phone(contact) }
    return contact.contains("@") ? email(contact) : "***"
  }

  /// The first letter of the local part and the whole domain (the user knows which mailbox it is).
  static func email(_ address: String) -> String {
    guard let at = address.lastIndex(of: "@"), at > address.startIndex else { return "***" }
    return "\(address[address.startIndex])***\(address[at...])"
  }

  /// E.164: the country code, then the first three and the last four national digits.
  static func phone(_ e164: String) -> String {
    let digits = Array(e164.dropFirst())
    let codeLength = countryCodeLength(digits)
    guard digits.count > codeLength + 4 else { return "+" + String(repeating: "*", count: digits.count) }
    let national = digits[codeLength...]
    let shown = min(3, national.count - 4)
    let hidden = national.count - shown - 4
    return "+\(String(digits[..<codeLength])) \(String(national.prefix(shown)))"
      + String(repeating: "*", count: hidden) + String(national.suffix(4))
  }

  /// ITU-T E.164 country codes are one to three digits and prefix-free: 1 (NANP) and 7 are one digit, these are
  /// two, the rest three.
  private static let twoDigitCodes: Set<String> = [
    "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
    "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
    "86", "90", "91", "92", "93", "94", "95", "98",
  ]

  private static func countryCodeLength(_ digits: [Character]) -> Int {
    guard let first = digits.first else { return 0 }
    if first == "1" || first == "7" { return 1 }
    return twoDigitCodes.contains(String(digits.prefix(2))) ? 2 : 3
  }
}
