import AuthJSON
import AuthProtocol
import AuthProviders

/// `test.lastCode {account?}`: the last one-time code the local provider issued (to that account when given), so
/// golden transcripts can script a whole code flow. Registered only in test mode: in production a code exists in
/// clear only on its way to the delivery command.
package struct TestLastCodeMethod: AsyncMethod {
  package static let name = "test.lastCode"
  /// After the profile's earlier sends (ordered as session changes), so a transcript reads the code it just sent.
  package let ordering = SessionOrdering.readsSession

  private let log: IssuedCodeLog
  private let validators: ProfileValidators

  package init(log: IssuedCodeLog, validators: ProfileValidators) {
    self.log = log
    self.validators = validators
  }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(AccountParam.keys)
    let account =
      AccountParam.isPresent(params)
      ? try AccountParam.read(params, validator: validators.validator(for: context.profile), locale: context.locale)
      : nil
    guard let code = log.lastCode(for: account?.text) else {
      throw RPCError(.invalidParams, "No code was issued to this account.", details: ["field": "account"])
    }
    return .object(["code": .string(code)])
  }
}
