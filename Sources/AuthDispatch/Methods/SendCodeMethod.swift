import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthSupport

/// `sendCode`: sends a one-time code. Params: one of `account`, `username`, `email`, `phone`, with `purpose`
/// (`login`, `register`, `resetPassword`, `verifyContact`) and optional `channel` (`sms`, `email`); or
/// `challenge` alone, to send the code of a pending step-up again. Answers `{sentTo, channel, resendAt,
/// expiresAt}` — the same shape whether or not the account exists.
package struct SendCodeMethod: AsyncMethod {
  package static let name = "sendCode"
  private static let keys = AccountParam.keys + ["purpose", "channel", "challenge"]
  /// It changes no session, but it is ordered like a session change so that a host pipelining `sendCode` then
  /// `login {account, code}` (or `resetPassword`) on a profile has its send done before the code is checked.
  package let ordering = SessionOrdering.changesSession

  private let sessions: SessionService
  private let validators: ProfileValidators

  package init(sessions: SessionService, validators: ProfileValidators) {
    self.sessions = sessions
    self.validators = validators
  }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(Self.keys)
    let sent = try await sessions.sendCode(profile: context.profile, try request(params, context))
    return .object([
      "sentTo": .string(sent.sentTo), "channel": .string(sent.channel.rawValue),
      "resendAt": .string(RFC3339.format(sent.resendAt)), "expiresAt": .string(RFC3339.format(sent.expiresAt)),
    ])
  }

  private func request(_ params: Params, _ context: CallContext) throws -> CodeRequest {
    if let challenge = try SecretParam.read(params, "challenge") {
      // The challenge fixes the account, the purpose and the channel of the first code.
      if let key = (AccountParam.keys + ["purpose", "channel"]).first(where: { params.object[$0] != nil }) {
        throw RPCError.invalidParams("a challenge already names its account, purpose and channel", field: key)
      }
      return CodeRequest(target: .challenge(challenge), purpose: .login)
    }
    guard let purpose = try params.choice("purpose", as: CodePurpose.self) else {
      throw RPCError.invalidParams("\"purpose\" is required", field: "purpose")
    }
    let channel = try params.choice("channel", as: CodeChannel.self)
    let validator = try validators.validator(for: context.profile)
    let account = try AccountParam.read(params, validator: validator, locale: context.locale)
    return CodeRequest(target: .account(account), purpose: purpose, channel: channel)
  }
}
