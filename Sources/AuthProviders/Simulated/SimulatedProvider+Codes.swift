/// The simulated second login step: an `mfa@…` login answers `verification_required`, and the challenge accepts
/// the fixed code (`123456` with the default code length). Nothing is delivered anywhere.
extension SimulatedProvider {
  package var codeFlows: [CodeFlow] { [.verify] }

  package func verify(challenge: String, code: String, profile: String) async throws -> IssuedSession {
    let account = try challenges.complete(challenge, now: time.clock.now(), accepted: code == self.code)
    return try issue(Self.user(account), .mfa)
  }

  /// `sendCode {challenge}` only: the simulated server sends no codes for accounts.
  package func sendCode(_ request: CodeRequest, profile: String) async throws -> SentCode {
    guard case .challenge(let challenge) = request.target else {
      throw ProviderError(.unsupported, "simulated: codes go only to a pending second step")
    }
    return try challenges.resend(challenge, now: time.clock.now())
  }
}
