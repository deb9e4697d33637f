/// What a rule found: the normalized value to report and the codes that failed.
struct RuleOutcome: Sendable, Equatable {
  /// `nil` only for passwords, which are never echoed.
  var value: String?
  var codes: ValidationCodeSet
}
