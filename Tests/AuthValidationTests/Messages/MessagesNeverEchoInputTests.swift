import Testing

@testable import AuthValidation

/// Messages are fixed sentences with limit numbers, so no input, however odd, can appear in one.
@Suite struct MessagesNeverEchoInputTests {
  static let inputs = [
    "zq", "Zebra!!", "bad@@mail", "+999", "p4ss\u{0}word", "字字", "🙂🙂", "QQQQ", "hunter2", "password", "12345678",
    "x@y", "secret\nvalue", "<script>", "%s%n", "\\u0000", "'; DROP TABLE users; --", "1380013", "Ab", "ab cd",
  ]

  @Test(
    arguments: FieldName.allCases,
    [
      (ValidationPurpose.register, PasswordPreset.standard), (.register, .classic), (.login, .standard),
      (.login, .classic),
    ]
  )
  func noMessageContainsTheInput(field: FieldName, setting: (ValidationPurpose, PasswordPreset)) throws {
    let (purpose, preset) = setting
    let validator = Validator(policy: try ValidationPolicy(passwordPreset: preset))
    for text in Self.inputs {
      var input = ValidationInput()
      input[field] = text
      for locale in MessageLocale.allCases {
        let report = validator.validate(input, purpose: purpose, locale: locale)
        for issue in report.fields.flatMap(\.issues) {
          #expect(!issue.message.contains(text), "\(field) \(issue.code): \(issue.message)")
        }
      }
    }
  }
}
