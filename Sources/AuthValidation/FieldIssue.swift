/// One failed rule: its stable code and a localized message that never quotes the input.
package struct FieldIssue: Sendable, Equatable {
  package let code: ValidationCode
  package let message: String

  package init(code: ValidationCode, message: String) {
    self.code = code
    self.message = message
  }
}
