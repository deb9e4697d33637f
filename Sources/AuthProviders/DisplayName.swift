/// Display names with their invisible formatting removed before any host shows them.
///
/// A display name comes from whoever registered or from a remote server, and hosts put it in front of people.
/// Bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE and the rest) reorder what follows them, so `Alice‮nimda` shows as
/// `Aliceadmin`; zero-width and other default-ignorable characters make two names that look identical differ, or a
/// name look empty; control characters can drive a terminal. All of them are stripped. Kept: variation selectors
/// (they only pick a glyph for the character before them) and a zero-width joiner between two emoji, which is how
/// sequences such as 👩‍💻 are written.
enum DisplayName {
  /// `text` without those characters; nil when nothing visible is left.
  static func neutralized(_ text: String?) -> String? {
    guard let text else { return nil }
    // Printable ASCII has nothing to strip: the common name, without several Unicode property lookups per character.
    if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return text.utf8.allSatisfy({ $0 == 0x20 }) ? nil : text }
    let scalars = Array(text.unicodeScalars)
    var kept = String.UnicodeScalarView()
    for (index, scalar) in scalars.enumerated() {
      let next = index + 1 < scalars.count ? scalars[index + 1] : nil
      if keeps(scalar, after: kept.last, before: next) { kept.append(scalar) }
    }
    let result = String(kept)
    return result.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) ? nil : result
  }

  private static func keeps(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?)
    -> Bool
  {
    let properties = scalar.properties
    if properties.generalCategory == .control || properties.isBidiControl { return false }
    guard properties.isDefaultIgnorableCodePoint else { return true }
    if properties.isVariationSelector { return true }
    if scalar == "\u{200D}", let previous, let next {
      return (isPictograph(previous) || previous.properties.isVariationSelector) && isPictograph(next)
    }
    return false
  }

  /// Digits, `#` and `*` count as emoji (keycap bases) but are ASCII: a joiner next to them only hides.
  private static func isPictograph(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isEmoji && !scalar.isASCII }
}
