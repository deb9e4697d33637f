import AuthConfig
import AuthCrypto
import AuthSupport
import Testing

@testable import AuthProviders

/// The parts of the `simulated` provider a host relies on for byte-stable transcripts: which card an account is,
/// derived tokens, and time passing on the test clock.
@Suite struct SimulatedProviderTests {
  @Test func theKeywordIsTheNameUpToItsAtOrTag() {
    #expect(SimulatedAccount("locked@example.com") == .locked)
    #expect(SimulatedAccount("Locked+2@example.com") == .locked)
    #expect(SimulatedAccount("locked") == .locked)
    #expect(SimulatedAccount("alice@locked.example") == .ordinary)
    #expect(SimulatedAccount("ordinary@example.com") == .ordinary)
    #expect(SimulatedAccount("+8613800138000") == .ordinary)
    #expect(SimulatedAccount("") == .ordinary)
  }

  @Test func derivedTokensRepeatAcrossProvidersAndDifferWithin() throws {
    let one = SimulatedTokens(random: nil)
    let two = SimulatedTokens(random: nil)
    let first = try one.mint("access", for: "alice")
    #expect(first == (try two.mint("access", for: "alice")))
    #expect(first.hasPrefix("sim-access-") && first.count == "sim-access-".count + 32)
    #expect(try one.mint("access", for: "alice") != first, "the counter moves on")
    let random = SimulatedTokens(random: SystemRandomSource())
    #expect(try random.mint("access", for: "alice") != (try random.mint("access", for: "alice")))
  }

  @Test func slowWaitsOnTheTestClockAndTimesOut() async throws {
    let clock = ManualClock(1_000)
    let provider = SimulatedProvider(
      config: SimulatedProviderConfig(timeoutSeconds: 7), time: SimulatedTime(clock: clock, testClock: clock),
      random: nil, refreshMarginSeconds: 60, codeLength: 6)
    await #expect(throws: ProviderError(.timeout, "simulated: no answer within 7 s")) {
      try await provider.login(LoginAccount(kind: .email, text: "slow@example.com"), password: "correct", profile: "p")
    }
    #expect(clock.now() == 1_007)
  }

  @Test func theCodeFollowsTheProfilesCodeLength() async throws {
    let clock = ManualClock(1_000)
    let provider = SimulatedProvider(
      config: .defaults, time: SimulatedTime(clock: clock, testClock: clock), random: nil, refreshMarginSeconds: 0,
      codeLength: 8)
    do {
      _ = try await provider.login(LoginAccount(kind: .username, text: "mfa"), password: "correct", profile: "p")
      Issue.record("no second step demanded")
    } catch let error as ProviderError {
      guard case .verificationRequired(let required) = error.code else { throw error }
      let session = try await provider.verify(challenge: required.challenge, code: "12345678", profile: "p")
      #expect(session.user.username == "mfa")
    }
  }
}
