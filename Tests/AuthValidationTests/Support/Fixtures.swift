@testable import AuthValidation

/// Shared helpers: validate one field and read back its report.
enum Fixtures {
  static let classic = ValidationPolicy.classic

  /// The report of `field` when it is the only field sent.
  static func report(
    _ field: FieldName,
    _ text: String,
    purpose: ValidationPurpose = .register,
    policy: ValidationPolicy = .standard,
    locale: MessageLocale = .en
  ) -> FieldReport {
    var input = ValidationInput()
    input[field] = text
    let report = Validator(policy: policy).validate(input, purpose: purpose, locale: locale)
    precondition(report.fields.count == 1, "one field sent, one field reported")
    return report.fields[0]
  }

  /// The codes of `field` when it is the only field sent.
  static func codes(
    _ field: FieldName,
    _ text: String,
    purpose: ValidationPurpose = .register,
    policy: ValidationPolicy = .standard
  ) -> [ValidationCode] {
    report(field, text, purpose: purpose, policy: policy).codes
  }

  /// `count` copies of `unit`, for boundary lengths.
  static func repeated(_ unit: String, _ count: Int) -> String {
    String(repeating: unit, count: count)
  }

  /// A policy that must be valid, for tests that are not about invalid policies.
  static func policy(
    preset: PasswordPreset = .standard,
    passwordMin: Int? = nil,
    passwordMax: Int? = nil,
    usernameMin: Int? = nil,
    usernameMax: Int? = nil,
    pattern: String? = nil
  ) throws -> ValidationPolicy {
    try ValidationPolicy(
      passwordPreset: preset,
      passwordMinLength: passwordMin,
      passwordMaxLength: passwordMax,
      usernameMinLength: usernameMin,
      usernameMaxLength: usernameMax,
      usernamePattern: pattern
    )
  }
}
