import AuthConfig
import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthSupport
import AuthValidation

/// `login`: validates with the login rules, authenticates with the profile's provider, stores
/// the session. Params: one of `account`, `username`, `email`, `phone`, and `password` (or `code`);
/// `challenge` and `code` (the second step of a login that answered `verification_required`); or
/// `flow: "device" | "authorizationCode"` and none of those (the user acts in a browser or on
/// another device, announced to the host with a `loginPrompt` notification).
package struct LoginMethod: AsyncMethod {
  package static let name = "login"
  /// The notification that tells the host what to show or open during an interactive login.
  package static let promptNotification = "loginPrompt"
  package let ordering = SessionOrdering.changesSession

  static let credentialFields: [FieldName] = [.account, .username, .email, .phone, .password]
  private static let keys = ["flow", "code", "challenge", LoginContext.key] + credentialFields.map(\.rawValue)

  private let sessions: SessionService
  private let validators: ProfileValidators
  private let sendPrompt: @Sendable (JSONObject) -> Void

  /// - Parameter sendPrompt: sends a `loginPrompt` notification with these params to the host.
  package init(
    sessions: SessionService, validators: ProfileValidators,
    sendPrompt: @escaping @Sendable (JSONObject) -> Void = { _ in }
  ) {
    self.sessions = sessions
    self.validators = validators
    self.sendPrompt = sendPrompt
  }

  /// An interactive login may wait minutes for a person, so it does not hold the profile's queue (a
  /// `getUser` or `logout` sent meanwhile is answered at once); its session is stored in one transaction when
  /// the user is done, as if the login arrived then. A `flow` that does not parse is answered by `call`.
  package func plan(for params: Params) -> CallPlan {
    guard (try? Self.flow(params))?.isInteractive == true else { return CallPlan(ordering: ordering) }
    return CallPlan(ordering: .independent, waitsForUser: true)
  }

  /// The requested `flow` (`password` when absent): read here only, for `plan` and `call` alike.
  private static func flow(_ params: Params) throws -> LoginFlow {
    try params.choice("flow", as: LoginFlow.self) ?? .password
  }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(Self.keys)
    let flow = try Self.flow(params)
    // Read through the profile, not copied out of it: a profile's config is a large value, and copying it (and
    // releasing the copy) touched every one of its fields on every login.
    let profile = try sessions.profile(context.profile)
    let hostContext = try LoginContext.read(params, declared: profile.config.provider.loginContextNames)
    let snapshot: SessionSnapshot
    if flow.isInteractive {
      snapshot = try await interactiveLogin(flow, params, context)
    } else if params.object["code"] != nil || params.object["challenge"] != nil {
      snapshot = try await codeLogin(params, context, hostContext: hostContext)
    } else {
      snapshot = try await passwordLogin(params, context, profile: profile, hostContext: hostContext)
    }
    return .object(["user": .object(snapshot.user), "session": .object(snapshot.session)])
  }

  private func passwordLogin(
    _ params: Params, _ context: CallContext, profile: SessionService.Profile, hostContext: [String: String]
  ) async throws -> SessionSnapshot {
    let (field, text) = try AccountParam.given(params)
    var input = ValidationInput()
    input[field] = text
    input.password = try params.string("password") ?? ""
    let validator = try validators.validator(for: context.profile)
    let report = validator.validate(input, purpose: .login, locale: context.locale)
    let account = try AccountParam.account(from: report, field: field, typed: text, context: hostContext)
    // An API whose login body needs a phone's forms cannot be sent an email, and the other way round: refused
    // here, worded as for the kind it takes, before anything is sent.
    let accountKind = report[field]?.kind ?? AccountParam.kind(of: field)
    if let needed = profile.config.provider.loginAccountKind, needed != accountKind {
      let refusal = validator.wrongAccountKind(
        field, value: account.text, kind: report[field]?.kind, needed: needed, locale: context.locale)
      throw ValidationFailure(report: ValidationReport(fields: [refusal]))
    }
    return try await sessions.login(profile: context.profile, account: account, password: input.password ?? "")
  }

  /// `{account, code}` logs in by a code sent for `login`; `{challenge, code}` completes a login that answered
  /// `verification_required`, without the password being sent again (the challenge stands for it).
  private func codeLogin(_ params: Params, _ context: CallContext, hostContext: [String: String]) async throws
    -> SessionSnapshot
  {
    guard params.object["password"] == nil else {
      throw RPCError.invalidParams("send either password or code, not both", field: "password")
    }
    let code = try SecretParam.required(params, "code")
    if let challenge = try SecretParam.read(params, "challenge") {
      guard !AccountParam.isPresent(params) else {
        throw RPCError.invalidParams("a challenge already names its account; send no account with it")
      }
      return try await sessions.verify(profile: context.profile, challenge: challenge, code: code)
    }
    // The account and the code are checked together, as a form shows both fields' errors at once.
    let (field, text) = try AccountParam.given(params)
    var input = ValidationInput()
    input[field] = text
    input.code = code
    let report = try validators.validator(for: context.profile).validate(input, purpose: .login, locale: context.locale)
    let account = try AccountParam.account(from: report, field: field, typed: text, context: hostContext)
    return try await sessions.login(profile: context.profile, account: account, code: code)
  }

  /// The user types nothing here: an account or a password sent along is refused as `validation_failed`
  /// (`not_taken`), never looked at further and never echoed.
  private func interactiveLogin(_ flow: LoginFlow, _ params: Params, _ context: CallContext) async throws
    -> SessionSnapshot
  {
    let extra = Self.credentialFields.filter { params.object[$0.rawValue] != nil }
    guard extra.isEmpty else { throw FieldsNotTaken(fields: extra) }
    if let key = ["code", "challenge"].first(where: { params.object[$0] != nil }) {
      throw RPCError.invalidParams("an interactive login takes no \(key)", field: key)
    }
    let (profile, id, send) = (context.profile, context.id, sendPrompt)
    return try await sessions.interactiveLogin(profile: profile, flow: flow) { prompt in
      send(Self.promptParams(prompt, profile: profile, id: id))
    }
  }

  /// `{profile, id, flow, …}`: `id` is the pending `login` request's, so a host with several logins in
  /// flight knows which one the prompt belongs to (`null` for a login sent as a notification).
  static func promptParams(_ prompt: LoginPrompt, profile: String, id: RequestID?) -> JSONObject {
    var params: JSONObject = ["profile": .string(profile)]
    params.appendNew(key: "id", value: id?.json ?? .null)
    params.appendNew(key: "flow", value: .string(prompt.flow.rawValue))
    switch prompt {
    case .device(let userCode, let uri, let complete, let expiresAt):
      params.appendNew(key: "userCode", value: .string(userCode))
      params.appendNew(key: "verificationUri", value: .string(uri))
      if let complete { params.appendNew(key: "verificationUriComplete", value: .string(complete)) }
      params.appendNew(key: "expiresAt", value: .string(RFC3339.format(expiresAt)))
    case .authorizationCode(let url, let redirectURI, let expiresAt):
      params.appendNew(key: "authorizationUrl", value: .string(url))
      params.appendNew(key: "redirectUri", value: .string(redirectURI))
      params.appendNew(key: "expiresAt", value: .string(RFC3339.format(expiresAt)))
    }
    return params
  }
}

/// Input that failed the validation rules; answered `validation_failed` with the per-field report.
struct ValidationFailure: Error {
  let report: ValidationReport
  /// Params checked under another field's rules, reported under their own name (`resetPassword`'s
  /// `newPassword` is checked as a `password`).
  var renamed: [FieldName: String] = [:]
}

/// Fields sent with an interactive `login`, which takes none; answered `validation_failed` with the code
/// `not_taken` for each (the values are never looked at).
struct FieldsNotTaken: Error {
  let fields: [FieldName]
}
