/// A named set of password rules.
package enum PasswordPreset: String, Sendable, CaseIterable {
  /// NIST SP 800-63B: length limits and a common-password check, no composition rules.
  case standard
  /// The rules of typical mobile apps: length limits plus at least one letter and one digit.
  case classic

  /// The length range used when a policy does not set its own.
  package var defaultLengthRange: ClosedRange<Int> {
    switch self {
    case .standard: 8...128
    case .classic: 8...64
    }
  }
}
