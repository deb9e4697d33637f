/// The outcome for one field that was sent.
package struct FieldReport: Sendable, Equatable {
  package let field: FieldName
  /// True when `issues` is empty.
  package let valid: Bool
  /// The normalized value; `nil` for `password`, which is never reported back.
  package let value: String?
  /// What `account` was classified as; `nil` for every other field.
  package let kind: AccountKind?
  /// Every rule that failed, in rule order.
  package let issues: [FieldIssue]

  package init(field: FieldName, value: String?, kind: AccountKind?, issues: [FieldIssue]) {
    self.field = field
    self.valid = issues.isEmpty
    self.value = value
    self.kind = kind
    self.issues = issues
  }

  /// The codes of `issues`, in order.
  package var codes: [ValidationCode] { issues.map(\.code) }
}
