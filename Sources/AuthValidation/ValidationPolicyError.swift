/// Why a ``ValidationPolicy`` could not be built: the config is wrong, so start-up reports it.
package struct ValidationPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Reason: Sendable, Equatable {
    /// A length below 1; empty input is already reported as `required`.
    case lengthBelowOne(Int)
    /// A minimum length above the maximum length it pairs with.
    case minimumAboveMaximum(minimum: Int, maximum: Int)
    /// A `usernamePattern` that is not a valid regular expression; holds the compiler's explanation.
    case invalidPattern(String)
  }

  /// The config key at fault, e.g. `passwordMinLength`.
  package let setting: String
  package let reason: Reason

  package init(setting: String, reason: Reason) {
    self.setting = setting
    self.reason = reason
  }

  package var description: String {
    switch reason {
    case .lengthBelowOne(let value):
      "\(setting) must be at least 1, not \(value)"
    case .minimumAboveMaximum(let minimum, let maximum):
      "\(setting) (\(minimum)) must not be greater than the maximum length (\(maximum))"
    case .invalidPattern(let explanation):
      "\(setting) is not a valid regular expression: \(explanation)"
    }
  }
}
