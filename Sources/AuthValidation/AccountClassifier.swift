/// Decides what a login form's single `account` field holds, so it can be checked by that kind's rules.
enum AccountClassifier {
  /// The fewest digits that make an account a phone number rather than a username.
  static let minPhoneDigits = 8

  /// - Parameter account: the input, already trimmed.
  /// - Returns: `.email` when it contains `@`; else `.phone` when, once phone separators are removed, it
  ///   is digits, optionally after a leading `+`, at least 8 of them; else `.username`.
  static func classify(_ account: Substring) -> AccountKind {
    classify(utf8: account.utf8)
  }

  static func classify(utf8 account: some Sequence<UInt8>) -> AccountKind {
    var digits = 0
    var looksLikePhone = true
    var sawSignificantByte = false
    for byte in account {
      if byte == UInt8(ascii: "@") { return .email }
      guard looksLikePhone, !PhoneRule.isSeparator(byte) else { continue }
      if ASCII.isDigit(byte) {
        digits += 1
      } else if byte != UInt8(ascii: "+") || sawSignificantByte {
        // A `+` counts only before the first digit; anything else rules out a phone number.
        looksLikePhone = false
      }
      sawSignificantByte = true
    }
    return looksLikePhone && digits >= minPhoneDigits ? .phone : .username
  }
}
