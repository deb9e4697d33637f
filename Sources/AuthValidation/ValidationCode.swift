/// The stable error codes of `validate`. Hosts switch on the raw values, so they never change.
///
/// - Important: The declaration order is the order in which rules run, and so the order of a field's
///   issues. Every field's rules are a subsequence of it; keep it that way when adding a code.
package enum ValidationCode: String, Sendable, CaseIterable {
  case required
  case tooShort = "too_short"
  case tooLong = "too_long"
  case invalidCharacters = "invalid_characters"
  case invalidFormat = "invalid_format"
  case missingLetter = "missing_letter"
  case missingDigit = "missing_digit"
  case tooCommon = "too_common"
}
