import AuthConfig

/// The simulated device flow: the prompt at once, then the login completes after a fixed number of polls (on the
/// test clock in test mode, so the answer follows the prompt at once and at the same clock time every run).
extension SimulatedProvider {
  package static let deviceUserCode = "SIMU-LATE"
  /// `.invalid` never resolves: nothing a host opens from a simulated prompt reaches a real server.
  package static let deviceVerificationURI = "https://simulated.invalid/device"
  package static let devicePollInterval: Int64 = 5
  package static let devicePolls = 3
  /// How long the prompt says the code is good for.
  package static let devicePromptSeconds: Int64 = 300
  /// Who the device login signs in.
  package static let deviceAccount = "device@simulated.invalid"

  package func interactiveLogin(_ flow: LoginFlow, profile: String, prompt: @escaping LoginPromptSink)
    async throws -> IssuedSession
  {
    guard flow == .device else { throw ProviderError(.unsupported, "simulated: no \(flow.rawValue) login") }
    prompt(
      .device(
        userCode: Self.deviceUserCode, verificationURI: Self.deviceVerificationURI,
        verificationURIComplete: Self.deviceVerificationURI + "?user_code=" + Self.deviceUserCode,
        expiresAt: time.clock.now() + Self.devicePromptSeconds))
    for _ in 0..<Self.devicePolls { try await time.pass(Self.devicePollInterval) }
    return try issue(Self.user(LoginAccount(kind: .email, text: Self.deviceAccount)), .ordinary)
  }
}
