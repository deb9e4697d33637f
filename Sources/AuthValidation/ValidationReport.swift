/// The outcome of one `validate` call.
package struct ValidationReport: Sendable, Equatable {
  /// True when every field sent is valid.
  package let valid: Bool
  /// Exactly the fields that were sent, in the canonical order of ``FieldName``.
  package let fields: [FieldReport]

  package init(fields: [FieldReport]) {
    self.valid = fields.allSatisfy(\.valid)
    self.fields = fields
  }

  /// The report for `field`, if it was sent.
  package subscript(field: FieldName) -> FieldReport? {
    fields.first { $0.field == field }
  }
}
