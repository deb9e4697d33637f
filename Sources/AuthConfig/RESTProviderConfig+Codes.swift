/// The `rest` provider's one-time code flows: which endpoints the API has, and how their answers — and a password
/// login's answer demanding a second step — are read. Every part is optional; a flow whose endpoint is absent
/// answers `unsupported`, and `status` lists only the flows configured.
extension RESTProviderConfig {
  package struct Codes: Sendable, Equatable {
    package static let none = Codes()
    /// The code purposes, as the sidecar names them; `purposes` maps them to the API's names.
    package static let purposeNames = ["login", "register", "resetPassword", "verifyContact"]

    /// Sends a code: an account value, `{purpose}`, `{channel}`; or `{challenge}` to resend a step-up's code.
    package let sendCode: Endpoint?
    /// The purposes `sendCode` offers, each with the name sent as `{purpose}`; a purpose not here is `unsupported`.
    package let purposes: [String: String]
    /// `login {account, code}`: an account value and `{code}`.
    package let loginWithCode: Endpoint?
    /// `login {challenge, code}`, the second step of a login the server answered with a step-up demand.
    package let verify: Endpoint?
    /// `resetPassword`: an account value, `{code}` and `{newPassword}`.
    package let resetPassword: Endpoint?
    package let answers: CodeAnswers

    package init(
      sendCode: Endpoint? = nil, purposes: [String: String] = [:], loginWithCode: Endpoint? = nil,
      verify: Endpoint? = nil, resetPassword: Endpoint? = nil, answers: CodeAnswers = CodeAnswers()
    ) {
      self.sendCode = sendCode
      self.purposes = purposes
      self.loginWithCode = loginWithCode
      self.verify = verify
      self.resetPassword = resetPassword
      self.answers = answers
    }
  }

  /// Where the code flows' answers keep what the sidecar reads (all in the profile's `response` object).
  package struct CodeAnswers: Sendable, Equatable {
    /// Holds on a password login's answer (whatever its status) that demands a code instead of a session.
    package let verificationRequired: AnswerRule?
    /// The challenge in that answer, sent back as `{challenge}`.
    package let challenge: FieldPath?
    /// What the host may offer for the second step.
    package let verificationMethods: VerificationMethods
    /// Seconds the challenge lives; without it the profile's `codes.ttlSeconds`.
    package let challengeExpiresIn: FieldPath?
    /// Where a send answer says (usually masked) where the code went; without it the account typed, masked.
    package let sentTo: FieldPath?
    /// Holds on a send answer that refuses because the last code was sent too recently (429 always counts).
    package let tooSoon: AnswerRule?
    /// Seconds to wait in a too-soon answer, when it has no `Retry-After` header.
    package let retryAfter: FieldPath?
    /// Seconds before another code may be asked for, in a send answer; without it `codes.resendCooldownSeconds`.
    package let resendIn: FieldPath?
    /// Seconds the sent code lives, in a send answer; without it `codes.ttlSeconds`.
    package let codeExpiresIn: FieldPath?
    /// Hold on an answer refusing a code as wrong / as expired (any status); a 400, 401 or 403 that matches
    /// neither is a wrong code.
    package let invalidCode: AnswerRule?
    package let codeExpired: AnswerRule?

    package init(
      verificationRequired: AnswerRule? = nil, challenge: FieldPath? = nil,
      verificationMethods: VerificationMethods = .byAccountKind, challengeExpiresIn: FieldPath? = nil,
      sentTo: FieldPath? = nil, tooSoon: AnswerRule? = nil, retryAfter: FieldPath? = nil,
      resendIn: FieldPath? = nil, codeExpiresIn: FieldPath? = nil, invalidCode: AnswerRule? = nil,
      codeExpired: AnswerRule? = nil
    ) {
      self.verificationRequired = verificationRequired
      self.challenge = challenge
      self.verificationMethods = verificationMethods
      self.challengeExpiresIn = challengeExpiresIn
      self.sentTo = sentTo
      self.tooSoon = tooSoon
      self.retryAfter = retryAfter
      self.resendIn = resendIn
      self.codeExpiresIn = codeExpiresIn
      self.invalidCode = invalidCode
      self.codeExpired = codeExpired
    }
  }

  /// The second-step methods a step-up offers.
  package enum VerificationMethods: Sendable, Equatable {
    /// `sms` for a phone account, `email` for any other: where the server can send a code.
    case byAccountKind
    /// Read from the answer (an array of names; unknown names are skipped).
    case path(FieldPath)
    /// Always these (`sms`, `email`, `totp`, `recovery`).
    case list([String])
  }
}
