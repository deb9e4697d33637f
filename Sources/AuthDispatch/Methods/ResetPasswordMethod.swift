import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthValidation

/// `resetPassword`: sets a new password with a code sent for `resetPassword`. Params: one of `account`,
/// `username`, `email`, `phone`; `code`; `newPassword` (checked by the profile's register policy, its field
/// errors reported as `validate` reports a password). On success every session of the account ends.
package struct ResetPasswordMethod: AsyncMethod {
  package static let name = "resetPassword"
  private static let keys = AccountParam.keys + ["code", "newPassword"]
  /// It ends sessions, so it is ordered like a logout.
  package let ordering = SessionOrdering.changesSession

  private let sessions: SessionService
  private let validators: ProfileValidators

  package init(sessions: SessionService, validators: ProfileValidators) {
    self.sessions = sessions
    self.validators = validators
  }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(Self.keys)
    let validator = try validators.validator(for: context.profile)
    let (field, text) = try AccountParam.given(params)
    var login = ValidationInput()
    login[field] = text
    login.code = try params.string("code") ?? ""
    var report = validator.validate(login, purpose: .login, locale: context.locale)
    let newPassword = try params.string("newPassword") ?? ""
    let passwordReport = validator.check(.password, newPassword, purpose: .register, locale: context.locale)
    // One answer with every field's errors, as a form shows them.
    report = ValidationReport(fields: report.fields + [passwordReport])
    guard report.valid else { throw ValidationFailure(report: report, renamed: [.password: "newPassword"]) }
    let account = try AccountParam.account(from: report, field: field, typed: text)
    let code = try SecretParam.required(params, "code")
    try await sessions.resetPassword(profile: context.profile, account: account, code: code, newPassword: newPassword)
    return .object(["reset": true])
  }
}
