import AuthConfig
import AuthHTTP
import AuthJSON

/// How the `rest` provider reads the answers of its code flows, through the profile's `response` rules. As for a
/// password login, outcomes come from structure — the status, a configured condition, a field's presence — never
/// from an error message's words.
struct RESTCodeAnswer {
  let answers: RESTProviderConfig.CodeAnswers
  let codes: CodesConfig

  /// A code refused outright: a 400, 401 or 403 the conditions do not explain is a wrong code (the server
  /// answers so for an unknown account too, and must not be told apart).
  static let codeStatus = StatusRule(refused: [400, 401, 403], refusal: .codeRefused(.invalidCode))

  /// Throws the refusal an answer to a code check carries. A 429 or 5xx is the server's trouble, as everywhere;
  /// then the `codeExpired` / `invalidCode` conditions (any other status: some APIs answer 200 with an error);
  /// then the status.
  func checkCode(_ response: HTTPResponse, _ what: String) throws {
    if let failure = RemoteFailures.providerError(status: response) { throw failure }
    let answer = RESTAnswer.json(response.body)
    if Self.says(answers.codeExpired, answer) {
      throw ProviderError(.codeRefused(.codeExpired), "\(what): the answer says the code expired")
    }
    if Self.says(answers.invalidCode, answer) {
      throw ProviderError(.codeRefused(.invalidCode), "\(what): the answer says the code is wrong")
    }
    try Self.codeStatus.check(response, what)
  }

  /// Throws `codeRateLimited` when a send answer refuses because a code went out too recently: a 429, or the
  /// `tooSoon` condition. The wait is the `Retry-After` header, else the answer's `retryAfter` field, else the
  /// profile's cooldown — hosts draw their countdown from it, so there is always one.
  func checkTooSoon(_ response: HTTPResponse, now: Int64) throws {
    let answer = RESTAnswer.json(response.body)
    guard response.status == 429 || Self.says(answers.tooSoon, answer) else { return }
    // The 429 table every remote provider shares reads the header.
    var header: Int64?
    if case .rateLimited(let seconds)? = RemoteFailures.providerError(status: response)?.code { header = seconds }
    let field = answers.retryAfter.flatMap { answer?.value(at: $0)?.seconds }
    let wait = max(1, header ?? field ?? Int64(codes.resendCooldownSeconds))
    throw ProviderError(
      .codeRateLimited(retryAfter: wait, resendAt: now + wait), "rest sendCode: the server says too soon")
  }

  /// What a host may show after an accepted send. `sentTo` is the answer's own (masked when it came in clear),
  /// else the account typed, masked.
  func sent(_ answer: JSONValue?, to account: LoginAccount?, channel: CodeChannel, now: Int64) -> SentCode {
    var sentTo = account.map { ContactMask.mask($0.text) } ?? "***"
    if let path = answers.sentTo, case .string(let given)? = answer?.value(at: path), !given.isEmpty {
      sentTo = given.contains("*") ? given : ContactMask.mask(given)
    }
    let resendIn = answers.resendIn.flatMap { answer?.value(at: $0)?.seconds } ?? Int64(codes.resendCooldownSeconds)
    let expiresIn = answers.codeExpiresIn.flatMap { answer?.value(at: $0)?.seconds } ?? Int64(codes.ttlSeconds)
    return SentCode(sentTo: sentTo, channel: channel, resendAt: now + resendIn, expiresAt: now + expiresIn)
  }

  // MARK: - Step-up

  /// The step-up a login answer demands, when the `verificationRequired` condition holds in it.
  /// - Throws: `badResponse` when it holds but the answer has no challenge a host could send back.
  func stepUp(_ response: HTTPResponse, account: LoginAccount, now: Int64) throws -> VerificationRequired? {
    guard let rule = answers.verificationRequired, let answer = RESTAnswer.json(response.body),
      rule.holds(in: answer)
    else { return nil }
    guard let path = answers.challenge, case .string(let challenge)? = answer.value(at: path),
      Self.isSendable(challenge)
    else { throw ProviderError(.badResponse, "rest login demands a code but gives no usable challenge") }
    let lifetime = answers.challengeExpiresIn.flatMap { answer.value(at: $0)?.seconds }.flatMap { $0 > 0 ? $0 : nil }
    return VerificationRequired(
      methods: methods(answer, account: account), challenge: challenge,
      expiresAt: now + (lifetime ?? Int64(codes.ttlSeconds)))
  }

  /// The methods the host may offer, as configured; an answer naming none the sidecar knows falls back to the
  /// account's own kind, so a host always has something to offer.
  func methods(_ answer: JSONValue, account: LoginAccount?) -> [VerificationMethod] {
    // A phone (or a username, whose server knows a phone) gets an SMS; an email account an email.
    let byKind: [VerificationMethod] = [account?.kind == .email ? .email : .sms]
    switch answers.verificationMethods {
    case .byAccountKind:
      return byKind
    case .list(let names):
      return names.compactMap(VerificationMethod.init(rawValue:))
    case .path(let path):
      let named = (answer.value(at: path)?.arrayValue ?? []).compactMap { value -> VerificationMethod? in
        if case .string(let name) = value { VerificationMethod(rawValue: name) } else { nil }
      }
      return named.isEmpty ? byKind : named
    }
  }

  /// Where a resend goes: the first code channel the configured methods name, else by the account's kind.
  func channel(for account: LoginAccount?) -> CodeChannel {
    if case .list(let names) = answers.verificationMethods,
      let first = names.lazy.compactMap(CodeChannel.init(rawValue:)).first
    {
      return first
    }
    return account?.kind == .email ? .email : .sms
  }

  /// A host must be able to send the challenge back as `login {challenge}`: 1–512 visible ASCII characters.
  static func isSendable(_ challenge: String) -> Bool {
    !challenge.isEmpty && challenge.utf8.count <= 512 && challenge.utf8.allSatisfy { (0x21...0x7E).contains($0) }
  }

  /// Whether `rule` is configured and holds in `answer` (no answer holds nothing).
  private static func says(_ rule: AnswerRule?, _ answer: JSONValue?) -> Bool {
    guard let rule, let answer else { return false }
    return rule.holds(in: answer)
  }
}
