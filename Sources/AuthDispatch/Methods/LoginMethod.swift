import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthValidation

/// `login`: validates with the login rules, authenticates with the profile's provider, stores
/// the session. Params: one of `account`, `username`, `email`, `phone`, and `password`.
package struct LoginMethod: AsyncMethod {
  package static let name = "login"
  package let ordering = SessionOrdering.changesSession

  private let sessions: SessionService
  private let validators: ProfileValidators

  package init(sessions: SessionService, validators: ProfileValidators) {
    self.sessions = sessions
    self.validators = validators
  }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["account", "username", "email", "phone", "password"])
    let given: [(FieldName, String)] = try [FieldName.account, .username, .email, .phone].compactMap { field in
      try params.string(field.rawValue).map { (field, $0) }
    }
    guard given.count <= 1 else {
      throw RPCError.invalidParams("give only one of account, username, email, phone")
    }
    let (field, text) = given.first ?? (.account, "")
    var input = ValidationInput()
    input[field] = text
    input.password = try params.string("password") ?? ""
    let validator = try validators.validator(for: context.profile)
    let report = validator.validate(input, purpose: .login, locale: context.locale)
    guard report.valid, let accountReport = report[field], let normalized = accountReport.value else {
      throw ValidationFailure(report: report)
    }
    let kind: LoginAccount.Kind
    switch accountReport.kind.map({ $0 }) ?? Self.kind(of: field) {
    case .email: kind = .email
    case .phone: kind = .phone
    case .username: kind = .username
    }
    let snapshot = try await sessions.login(
      profile: context.profile, account: LoginAccount(kind: kind, text: normalized), password: input.password ?? "")
    return .object(["user": .object(snapshot.user), "session": .object(snapshot.session)])
  }

  private static func kind(of field: FieldName) -> AccountKind {
    switch field {
    case .email: return .email
    case .phone: return .phone
    default: return .username
    }
  }
}

/// Input that failed the validation rules; answered `validation_failed` with the per-field report.
struct ValidationFailure: Error {
  let report: ValidationReport
}
