import Foundation
import Testing

/// The `simulated` provider's table (docs/simulated-provider.md), the `login` column row by row, through the real
/// binary in test mode.
@Suite struct SimulatedProviderEndToEndTests {
  @Test func anyAccountWithTheWordCorrectLogsIn() throws {
    let simulated = try SimulatedFixture("ordinary")
    defer { simulated.cleanUp() }
    let answer = simulated.login("alice@example.com")
    let user = try #require(answer.result?["user"] as? [String: Any], "\(answer)")
    #expect(user["username"] as? String == "alice@example.com" && user["email"] as? String == "alice@example.com")
    #expect(answer.accessToken?.hasPrefix("sim-access-") == true)
    #expect((answer.result?["session"] as? [String: Any])?["expiresAt"] as? String == "2027-01-01T01:00:00Z")
    #expect(simulated.sessionStates == ["loggedIn"])
    #expect(simulated.sidecar.call("getUser", ["refresh": true]).result?["stale"] as? Bool == false)
    let refreshed = simulated.sidecar.call("refreshToken", ["force": true])
    #expect(refreshed.accessToken != nil && refreshed.accessToken != answer.accessToken, "\(refreshed)")
    simulated.finish()
  }

  @Test func anotherPasswordIsInvalidCredentials() throws {
    let simulated = try SimulatedFixture("wrong")
    defer { simulated.cleanUp() }
    let answer = simulated.login("alice@example.com", "Correct")
    #expect(answer.errorKind == "invalid_credentials" && answer.errorData?["reason"] == nil, "\(answer)")
    #expect(simulated.sidecar.call("getUser").errorKind == "not_logged_in")
    simulated.finish()
  }

  /// The cards that answer before any password is checked, each with its kind and data.
  @Test(arguments: [
    ("unknown@example.com", "invalid_credentials", "reason", "unknown_account"),
    ("locked@example.com", "rate_limited", "retryAfter", "30"),
    ("Blocked+2@example.com", "rate_limited", "reason", "locked"),
    ("offline@example.com", "network_unavailable", nil, nil),
    ("error@example.com", "server_error", "status", "503"),
    ("garbled@example.com", "bad_response", nil, nil),
    ("untrusted", "tls_error", nil, nil),
  ])
  func aFailureCard(_ account: String, _ kind: String, _ key: String?, _ value: String?) throws {
    let simulated = try SimulatedFixture("card")
    defer { simulated.cleanUp() }
    for password in ["correct", "anything else"] {
      let answer = simulated.login(account, password)
      #expect(answer.errorKind == kind, "\(account): \(answer)")
      if let key { #expect(answer.errorData?[key].map { "\($0)" } == value, "\(account): \(answer)") }
    }
    // The transient kinds may be retried, but never a hard lock.
    let retryable = ["rate_limited", "network_unavailable", "server_error"].contains(kind) && value != "locked"
    #expect(simulated.login(account).errorData?["retryable"] as? Bool == retryable)
    #expect(simulated.sidecar.call("getUser").errorKind == "not_logged_in")
    #expect(simulated.sessionStates.isEmpty)
    simulated.finish()
  }

  /// `slow@…` waits the profile's `timeoutSeconds` (7) on the test clock: the answer comes at once, the clock
  /// then reads 7 s later.
  @Test func slowTimesOutAfterTheProfilesTimeoutOfTestClock() throws {
    let simulated = try SimulatedFixture("slow")
    defer { simulated.cleanUp() }
    #expect(simulated.login("slow@example.com").errorKind == "timeout")
    #expect(simulated.now == "2027-01-01T00:00:07Z")
    simulated.finish()
  }

  @Test func withoutTestModeTokensAreRandomAndTheTableHolds() throws {
    let simulated = try SimulatedFixture("real", testMode: false)
    defer { simulated.cleanUp() }
    let first = simulated.login("alice@example.com").accessToken
    let second = simulated.login("alice@example.com").accessToken
    #expect(first != nil && second != nil && first != second)
    #expect(simulated.login("error@example.com").errorKind == "server_error")
    #expect(simulated.sidecar.call("test.advanceClock", ["seconds": 0]).errorKind == "method_not_found")
    simulated.finish()
  }
}
