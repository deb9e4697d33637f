import AuthProtocol
import AuthSession
import AuthValidation

/// One `Validator` per configured profile, built once at start-up (a custom policy renders its
/// messages when its validator is made).
package struct ProfileValidators: Sendable {
  private let validators: [String: Validator]

  package init(policies: [String: ValidationPolicy]) {
    validators = policies.mapValues { Validator(policy: $0) }
  }

  /// - Throws: `SessionError.unknownProfile` for a profile the config lacks.
  package func validator(for profile: String) throws(SessionError) -> Validator {
    guard let validator = validators[profile] else { throw SessionError(.unknownProfile(profile)) }
    return validator
  }
}
