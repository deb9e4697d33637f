import AuthJSON
import AuthProtocol
import AuthValidation

/// `validate`: checks form fields without any I/O. See docs/validation-rules.md.
package struct ValidateMethod: InlineMethod {
  package static let name = "validate"
  private static let fieldKeys: Set<String> = Set(FieldName.allCases.map(\.rawValue)).union(["purpose"])

  private let validatorForProfile: @Sendable (String) -> Validator

  /// - Parameter validatorForProfile: the validator with the profile's policy.
  package init(validatorForProfile: @escaping @Sendable (String) -> Validator) {
    self.validatorForProfile = validatorForProfile
  }

  package func call(_ params: Params, context: CallContext) throws -> JSONValue {
    try params.allowOnly(Self.fieldKeys)
    let input = ValidationInput(
      account: try params.string("account"), username: try params.string("username"),
      email: try params.string("email"), phone: try params.string("phone"), password: try params.string("password"))
    guard input.account != nil || input.username != nil || input.email != nil || input.phone != nil
      || input.password != nil
    else {
      throw RPCError.invalidParams("give at least one of account, username, email, phone, password")
    }
    let purpose = try Self.purpose(params)
    let report = validatorForProfile(context.profile).validate(input, purpose: purpose, locale: context.locale)
    return .object(["valid": .bool(report.valid), "fields": .object(Self.fieldsJSON(report))])
  }

  private static func purpose(_ params: Params) throws(RPCError) -> ValidationPurpose {
    guard let raw = try params.string("purpose") else { return .register }
    guard let purpose = ValidationPurpose(rawValue: raw) else {
      throw .invalidParams("\"purpose\" must be \"register\" or \"login\"", field: "purpose")
    }
    return purpose
  }

  /// The `fields` object of a report; also used by `login`'s `validation_failed` errors.
  package static func fieldsJSON(_ report: ValidationReport) -> JSONObject {
    var fields = JSONObject()
    for field in report.fields {
      var entry: JSONObject = ["valid": .bool(field.valid)]
      if let value = field.value { entry["value"] = .string(value) }
      if let kind = field.kind { entry["kind"] = .string(kind.rawValue) }
      entry["errors"] = .array(
        field.issues.map { .object(["code": .string($0.code.rawValue), "message": .string($0.message)]) })
      fields[field.field.rawValue] = .object(entry)
    }
    return fields
  }
}
