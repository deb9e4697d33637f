/// The ITU-T E.164 country calling codes, as far as needed to split a number into its country code and its
/// national number (`+8613812345678` → `86`, `13812345678`).
///
/// The codes form a prefix code: `1` and `7` are the only one-digit codes, the two-digit ones are listed below,
/// every other number starts with a three-digit code. So this small table decides the split for any number,
/// with no numbering-plan data.
package enum CountryCallingCode {
  static let oneDigit: Set<String> = ["1", "7"]
  static let twoDigits: Set<String> = [
    "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
    "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
    "86", "90", "91", "92", "93", "94", "95", "98",
  ]

  /// The national (significant) number of an E.164 number, digits only; nil unless `e164` is `+` and digits.
  package static func nationalNumber(_ e164: String) -> String? {
    guard e164.first == "+" else { return nil }
    let digits = e164.dropFirst()
    guard digits.count > 3, digits.utf8.allSatisfy(ASCII.isDigit) else { return nil }
    let length = oneDigit.contains(String(digits.prefix(1))) ? 1 : twoDigits.contains(String(digits.prefix(2))) ? 2 : 3
    return String(digits.dropFirst(length))
  }
}
