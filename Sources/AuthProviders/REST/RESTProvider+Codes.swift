import AuthConfig
import AuthHTTP
import AuthJSON

/// The `rest` provider's one-time code flows, each an endpoint of the API described like `login` (templates,
/// encoding, method) and read through the profile's `response` rules (`RESTCodeAnswer`). The server keeps the
/// codes, their attempts, its cooldown and the step-up's state; the sidecar sends what the user typed and maps
/// the answers to the kinds hosts act on. Codes and challenges go only into request bodies, never into a log line.
extension RESTProvider {
  /// What `status` lists: the flows whose endpoints the profile configures.
  package var codeFlows: [CodeFlow] {
    let codes = config.codes
    let configured: [(CodeFlow, Bool)] = [
      (.sendCode, codes.sendCode != nil), (.loginWithCode, codes.loginWithCode != nil), (.verify, codes.verify != nil),
      (.resetPassword, codes.resetPassword != nil),
    ]
    return configured.filter(\.1).map(\.0)
  }

  var codeAnswer: RESTCodeAnswer { RESTCodeAnswer(answers: config.codes.answers, codes: codes) }

  /// Throws `verificationRequired` when a password login's answer demands a code, remembering who the challenge
  /// is for.
  func demandedStepUp(_ response: HTTPResponse, account: LoginAccount) throws {
    let now = clock.now()
    guard let required = try codeAnswer.stepUp(response, account: account, now: now) else { return }
    challenges.remember(required.challenge, account: account, until: required.expiresAt, now: now)
    throw ProviderError(.verificationRequired(required), "rest login demands a second step")
  }

  package func sendCode(_ request: CodeRequest, profile: String) async throws -> SentCode {
    guard let endpoint = config.codes.sendCode else { throw ProviderError(.unsupported, "no sendCode endpoint") }
    let now = clock.now()
    var values: RESTTemplateValues
    let account: LoginAccount?
    let channel: CodeChannel
    switch request.target {
    case .account(let typed):
      guard let purpose = config.codes.purposes[request.purpose.rawValue] else {
        throw ProviderError(.unsupported, "the API's sendCode offers no \(request.purpose) codes")
      }
      account = typed
      channel = request.channel ?? (typed.kind == .email ? .email : .sms)
      values = .naming(typed, request: config.loginRequest)
      values.purpose = purpose
    case .challenge(let challenge):
      guard endpoint.body.contains(where: { $0.template.placeholders.contains(.challenge) }) else {
        throw ProviderError(.unsupported, "the sendCode endpoint takes no {challenge}")
      }
      account = challenges.account(for: challenge, now: now)
      channel = codeAnswer.channel(for: account)
      values = RESTTemplateValues(challenge: challenge, purpose: config.codes.purposes["login"] ?? "login")
    }
    values.channel = channel.rawValue
    let response = try await send(endpoint, values, bearer: nil, idempotent: false)
    try codeAnswer.checkTooSoon(response, now: now)
    let answer = RESTAnswer.json(response.body)
    if case .challenge = request.target {
      // The server no longer knows the step-up (expired, spent, or never ours): as a wrong code, like the local
      // provider answers an unknown challenge.
      try codeAnswer.checkCode(response, "rest sendCode")
      guard !RESTAnswer.saysFailed(answer, config.response) else {
        throw ProviderError(.codeRefused(.invalidCode), "rest sendCode refused the challenge")
      }
    } else {
      try StatusRule.plain.check(response, "rest sendCode")
      guard !RESTAnswer.saysFailed(answer, config.response) else {
        throw ProviderError(.badResponse, "rest sendCode answered \(response.status) with a failure")
      }
    }
    return codeAnswer.sent(answer, to: account, channel: channel, now: now)
  }

  package func login(_ account: LoginAccount, code: String, profile: String) async throws -> IssuedSession {
    guard let endpoint = config.codes.loginWithCode else {
      throw ProviderError(.unsupported, "no loginWithCode endpoint")
    }
    var values = RESTTemplateValues.naming(account, request: config.loginRequest)
    values.code = code
    let response = try await send(endpoint, values, bearer: nil, idempotent: false)
    try codeAnswer.checkCode(response, "rest code login")
    return try await session(from: response, account: account, refusal: .codeRefused(.invalidCode))
  }

  package func verify(challenge: String, code: String, profile: String) async throws -> IssuedSession {
    guard let endpoint = config.codes.verify else { throw ProviderError(.unsupported, "no verify endpoint") }
    let response = try await send(
      endpoint, RESTTemplateValues(code: code, challenge: challenge), bearer: nil, idempotent: false)
    try codeAnswer.checkCode(response, "rest step-up")
    let account = challenges.account(for: challenge, now: clock.now())
    let issued = try await session(from: response, account: account, refusal: .codeRefused(.invalidCode))
    challenges.forget(challenge)
    return issued
  }

  package func resetPassword(_ account: LoginAccount, code: String, newPassword: String, profile: String)
    async throws -> PasswordReset
  {
    guard let endpoint = config.codes.resetPassword else {
      throw ProviderError(.unsupported, "no resetPassword endpoint")
    }
    var values = RESTTemplateValues.naming(account, request: config.loginRequest)
    values.code = code
    values.newPassword = newPassword
    let response = try await send(endpoint, values, bearer: nil, idempotent: false)
    try codeAnswer.checkCode(response, "rest resetPassword")
    let answer = RESTAnswer.json(response.body)
    guard !RESTAnswer.saysFailed(answer, config.response) else {
      throw ProviderError(.codeRefused(.invalidCode), "rest resetPassword answered success=false")
    }
    // The account whose sessions end: as the answer names it, else as the user typed it — `SessionService` also
    // matches a stored session by username, email or phone, as a reset API rarely returns the user's id.
    let object = config.response.user.flatMap { answer?.value(at: $0)?.objectValue }
    let named = object.flatMap { RESTAnswer.user($0, config.userFields, fallbackUsername: account.typed) }
    return PasswordReset(user: named ?? Self.user(named: account))
  }

  /// A user known only by the account typed: what the user typed is the name the server knows them by.
  static func user(named account: LoginAccount) -> UserInfo {
    UserInfo(
      id: account.typed, username: account.typed, email: account.kind == .email ? account.text : nil,
      phone: account.kind == .phone ? account.text : nil)
  }
}
