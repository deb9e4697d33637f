/// One field checked on its bytes, for the request fast path, which reads `validate` lines without building
/// Strings. Only ASCII input: beyond it, trimming, lengths and letters need Unicode properties, and the fast
/// path leaves such lines to `Validator.check`. Every decision is the rules' own function on bytes, and a
/// differential test holds the two paths' answers byte-identical.
package struct ASCIIFieldVerdict: Sendable {
  package let field: FieldName
  package let kind: AccountKind?
  package let codes: ValidationCodeSet
  private let value: NormalizedValue

  package var valid: Bool { codes.isEmpty }

  /// Whether the answer carries a `value` (never for a password or a code, which are secrets).
  package var hasValue: Bool {
    if case .none = value { false } else { true }
  }

  /// How the reported value comes from the field's bytes.
  fileprivate enum NormalizedValue {
    case none
    case trimmed(Range<Int>)
    /// An address whose domain (from the first `@`) is lower-cased.
    case lowercasedDomain(Range<Int>, at: Int)
    /// A number without its separators, after the country code of a mainland China mobile when it is one.
    case phone(Range<Int>, chinaMobile: Bool)
  }

  fileprivate init(_ field: FieldName, kind: AccountKind? = nil, _ codes: ValidationCodeSet, _ value: NormalizedValue) {
    self.field = field
    self.kind = kind
    self.codes = codes
    self.value = value
  }

  /// The most bytes `writeValue` writes for a field of `count` bytes: a phone number may gain its country code.
  package static func maxValueCount(_ count: Int) -> Int { count + PhoneRule.chinaCountryCode.utf8.count }

  /// Writes the normalized value, unescaped, taken from the same bytes the verdict was made from, to `out`
  /// (which has room for `maxValueCount(text.count)` bytes); returns how many bytes it wrote.
  package func writeValue(from text: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
    switch value {
    case .none:
      return 0
    case .trimmed(let range):
      return Self.copy(text[range], to: out)
    case .lowercasedDomain(let range, let at):
      let count = Self.copy(text[range], to: out)
      for index in (at - range.lowerBound)..<count { out[index] = ASCII.lowercased(out[index]) }
      return count
    case .phone(let range, let chinaMobile):
      var count = 0
      if chinaMobile {
        for byte in PhoneRule.chinaCountryCode.utf8 {
          out[count] = byte
          count += 1
        }
      }
      for byte in text[range] where !PhoneRule.isSeparator(byte) {
        out[count] = byte
        count += 1
      }
      return count
    }
  }

  private static func copy(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, to out: UnsafeMutablePointer<UInt8>) -> Int {
    guard let base = bytes.base.baseAddress, !bytes.isEmpty else { return 0 }
    out.initialize(from: base + bytes.startIndex, count: bytes.count)
    return bytes.count
  }
}

extension Validator {
  /// `field` checked on its UTF-8 bytes; nil when they are not all ASCII or the profile's username rule is
  /// a pattern (a regular expression runs on Strings), and the caller must use `check`.
  package func checkASCII(
    _ field: FieldName, _ text: UnsafeBufferPointer<UInt8>, purpose: ValidationPurpose
  ) -> ASCIIFieldVerdict? {
    guard policy.compiledUsernamePattern == nil, ASCII.isASCII(text) else { return nil }
    let trimmed = ASCII.trimmingWhitespace(text)
    let value = UnsafeBufferPointer(rebasing: text[trimmed])
    switch field {
    case .account:
      let kind = AccountClassifier.classify(utf8: value)
      let (codes, normalized) = check(value, trimmed, as: kind, purpose: purpose)
      return ASCIIFieldVerdict(field, kind: kind, codes, normalized)
    case .username, .email, .phone:
      let kind: AccountKind = field == .username ? .username : field == .email ? .email : .phone
      let (codes, normalized) = check(value, trimmed, as: kind, purpose: purpose)
      return ASCIIFieldVerdict(field, codes, normalized)
    case .code:
      return ASCIIFieldVerdict(field, CodeRule.codes(value, length: policy.codeLength), .none)
    case .password:
      let codes = passwordRule.codes(
        PasswordRule.Scan(text), purpose: purpose,
        isCommon: { CommonPasswords.contains(utf8: UnsafeRawBufferPointer(text)) },
        hasNonASCIILetter: { false })
      return ASCIIFieldVerdict(field, codes, .none)
    }
  }

  private func check(
    _ value: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, as kind: AccountKind, purpose: ValidationPurpose
  ) -> (ValidationCodeSet, ASCIIFieldVerdict.NormalizedValue) {
    switch kind {
    case .username:
      return (usernameRule.codes(value, purpose: purpose), .trimmed(range))
    case .email:
      guard !value.isEmpty else { return (.required, .trimmed(range)) }
      let codes = EmailRule.codes(codePoints: value.count, purpose: purpose) { EmailRule.isWellFormed(value) }
      guard let at = value.firstIndex(of: UInt8(ascii: "@")) else { return (codes, .trimmed(range)) }
      return (codes, .lowercasedDomain(range, at: range.lowerBound + at))
    case .phone:
      guard !value.isEmpty else { return (.required, .trimmed(range)) }
      let shape = PhoneRule.shape(value.lazy.filter { !PhoneRule.isSeparator($0) })
      let codes = shape == .invalid ? ValidationCodeSet(.invalidFormat) : ValidationCodeSet()
      return (codes, .phone(range, chinaMobile: shape == .chinaMobile))
    }
  }
}
