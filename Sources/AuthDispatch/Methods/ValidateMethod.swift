import AuthJSON
import AuthProtocol
import AuthValidation

/// `validate`: checks form fields without any I/O. See docs/validation-rules.md.
package struct ValidateMethod: InlineMethod {
  package static let name = "validate"
  private static let fieldKeys = FieldName.allCases.map(\.rawValue) + ["purpose"]

  private let validators: ProfileValidators

  package init(validators: ProfileValidators) { self.validators = validators }

  package func call(_ params: Params, context: CallContext) throws -> EncodedJSON {
    try params.allowOnly(Self.fieldKeys)
    let input = ValidationInput(
      account: try params.string("account"), username: try params.string("username"),
      email: try params.string("email"), phone: try params.string("phone"),
      password: try params.string("password"), code: try params.string("code"))
    guard !input.isEmpty else { throw Self.noFields }
    let purpose = try Self.purpose(params)
    let report = try validators.validator(for: context.profile).validate(input, purpose: purpose, locale: context.locale)
    return Self.encode(report)
  }

  /// Writes `{valid, fields}` straight to bytes: this is the answer of the hottest method,
  /// and a tree built only to be serialized would cost more than the validation itself.
  static func encode(_ report: ValidationReport) -> EncodedJSON {
    var out: [UInt8] = []
    out.reserveCapacity(96 + report.fields.count * 96)
    ValidationAnswerWriter.open(valid: report.valid, into: &out)
    for (index, field) in report.fields.enumerated() {
      ValidationAnswerWriter.openField(field.field, valid: field.valid, first: index == 0, into: &out)
      if let value = field.value { ValidationAnswerWriter.writeValue(value, into: &out) }
      if let kind = field.kind { ValidationAnswerWriter.writeKind(kind, into: &out) }
      guard !field.issues.isEmpty else {
        ValidationAnswerWriter.closeValidField(into: &out)
        continue
      }
      ValidationAnswerWriter.openErrors(into: &out)
      for (issueIndex, issue) in field.issues.enumerated() {
        ValidationAnswerWriter.writeIssue(issue.code, issue.message, first: issueIndex == 0, into: &out)
      }
      ValidationAnswerWriter.closeField(into: &out)
    }
    ValidationAnswerWriter.close(into: &out)
    return EncodedJSON(trustedBytes: out)
  }

  private static func purpose(_ params: Params) throws(RPCError) -> ValidationPurpose {
    guard let raw = try params.string("purpose") else { return .register }
    guard let purpose = ValidationPurpose(rawValue: raw) else { throw badPurpose }
    return purpose
  }

  /// Errors the fast path gives too.
  static let noFields = RPCError.invalidParams("give at least one of account, username, email, phone, password, code")
  static let badPurpose = RPCError.invalidParams("\"purpose\" must be \"register\" or \"login\"", field: "purpose")

  /// The `fields` object of a report; also used by `login`'s `validation_failed` errors.
  package static func fieldsJSON(_ report: ValidationReport, renamed: [FieldName: String] = [:]) -> JSONObject {
    var fields = JSONObject()
    for field in report.fields {
      var entry: JSONObject = ["valid": .bool(field.valid)]
      if let value = field.value { entry.appendNew(key: "value", value: .string(value)) }
      if let kind = field.kind { entry.appendNew(key: "kind", value: .string(kind.rawValue)) }
      entry.appendNew(
        key: "errors",
        value: .array(field.issues.map { .object(["code": .string($0.code.rawValue), "message": .string($0.message)]) }))
      fields.appendNew(key: renamed[field.field] ?? field.field.rawValue, value: .object(entry))
    }
    return fields
  }
}
