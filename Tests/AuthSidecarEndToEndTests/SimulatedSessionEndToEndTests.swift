import Foundation
import Testing

/// The `simulated` provider's table (docs/simulated-provider.md), the rows about what follows a login: a server
/// gone after it, a refresh refused, a second step, a device flow, a registration; and `status`.
@Suite struct SimulatedSessionEndToEndTests {
  @Test func staleLogsInThenAnswersFromTheStore() throws {
    let simulated = try SimulatedFixture("stale")
    defer { simulated.cleanUp() }
    #expect(simulated.login("stale@example.com").accessToken != nil)
    let fetched = simulated.sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == true, "\(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["username"] as? String == "stale@example.com")
    #expect(simulated.sidecar.call("refreshToken", ["force": true]).errorKind == "network_unavailable")
    #expect(simulated.sidecar.call("getUser").result != nil, "a network failure never ends the session")
    simulated.finish()
  }

  @Test func expiringWorksForSixtySecondsThenItsRefreshIsRefused() throws {
    let simulated = try SimulatedFixture("expiring")
    defer { simulated.cleanUp() }
    let login = simulated.login("expiring@example.com")
    // Due 60 s after the login: expiresAt is 60 s past the default refresh margin of 60 s.
    #expect((login.result?["session"] as? [String: Any])?["expiresAt"] as? String == "2027-01-01T00:02:00Z")
    _ = simulated.sidecar.call("test.advanceClock", ["seconds": 59])
    #expect(simulated.sidecar.call("getUser").result != nil)
    _ = simulated.sidecar.call("test.advanceClock", ["seconds": 1])
    #expect(simulated.sidecar.call("getUser").errorKind == "session_expired")
    #expect(simulated.sessionStates == ["loggedIn", "expired"])
    #expect(simulated.sidecar.call("getUser").errorKind == "not_logged_in")
    simulated.finish()
  }

  @Test func mfaDemandsTheFixedCode() throws {
    let simulated = try SimulatedFixture("mfa")
    defer { simulated.cleanUp() }
    #expect(simulated.login("mfa@example.com", "wrong").errorKind == "invalid_credentials")
    let demanded = simulated.login("mfa@example.com")
    #expect(demanded.errorKind == "verification_required", "\(demanded)")
    let data = try #require(demanded.errorData)
    let challenge = try #require(data["challenge"] as? String)
    #expect(data["methods"] as? [String] == ["email"] && data["sentTo"] as? String == "m***@example.com")
    #expect(data["expiresAt"] as? String == "2027-01-01T00:05:00Z")
    #expect(data["resendAt"] as? String == "2027-01-01T00:01:00Z")
    let wrong = simulated.sidecar.call("login", ["challenge": challenge, "code": "654321"])
    #expect(wrong.errorKind == "invalid_credentials" && wrong.errorData?["reason"] as? String == "invalid_code")
    let early = simulated.sidecar.call("sendCode", ["challenge": challenge])
    #expect(early.errorKind == "rate_limited" && early.errorData?["resendAt"] as? String == "2027-01-01T00:01:00Z")
    _ = simulated.sidecar.call("test.advanceClock", ["seconds": 60])
    #expect(simulated.sidecar.call("sendCode", ["challenge": challenge]).result?["sentTo"] as? String
      == "m***@example.com")
    let done = simulated.sidecar.call("login", ["challenge": challenge, "code": "123456"])
    #expect((done.result?["user"] as? [String: Any])?["username"] as? String == "mfa@example.com", "\(done)")
    let reused = simulated.sidecar.call("login", ["challenge": challenge, "code": "123456"])
    #expect(reused.errorData?["reason"] as? String == "invalid_code", "a challenge is used once")
    // A challenge left past its 300 s: the code is refused as expired.
    let late = try #require(simulated.login("mfa+late@example.com").errorData?["challenge"] as? String)
    _ = simulated.sidecar.call("test.advanceClock", ["seconds": 300])
    let expired = simulated.sidecar.call("login", ["challenge": late, "code": "123456"])
    #expect(expired.errorData?["reason"] as? String == "code_expired", "\(expired)")
    let forAccount = simulated.sidecar.call("sendCode", ["account": "mfa@example.com", "purpose": "login"])
    #expect(forAccount.errorKind == "unsupported", "codes go only to a pending second step")
    simulated.finish()
  }

  @Test func theDeviceFlowPromptsThenCompletesAfterThreePolls() throws {
    let simulated = try SimulatedFixture("device")
    defer { simulated.cleanUp() }
    let id = simulated.sidecar.send("login", ["flow": "device"])
    let prompt = try #require(simulated.sidecar.prompt(for: id))
    #expect(prompt["userCode"] as? String == "SIMU-LATE")
    #expect(prompt["verificationUri"] as? String == "https://simulated.invalid/device")
    let answer = simulated.sidecar.answer(for: id)
    #expect((answer.result?["user"] as? [String: Any])?["username"] as? String == "device@simulated.invalid")
    #expect(simulated.now == "2027-01-01T00:00:15Z", "3 polls, 5 s apart, on the test clock")
    #expect(simulated.sidecar.call("login", ["flow": "authorizationCode"]).errorKind == "unsupported")
    simulated.finish()
  }

  /// Without test mode the polls take real time (15 s), so a host can cancel the pending login meanwhile.
  @Test func aDeviceLoginCancelledWhilePollingAnswersCancelled() throws {
    let simulated = try SimulatedFixture("device-cancel", testMode: false)
    defer { simulated.cleanUp() }
    let id = simulated.sidecar.send("login", ["flow": "device"])
    #expect(simulated.sidecar.prompt(for: id)?["userCode"] as? String == "SIMU-LATE")
    simulated.sidecar.cancel(id)
    #expect(simulated.sidecar.answer(for: id).errorKind == "cancelled")
    #expect(simulated.sidecar.call("getUser").errorKind == "not_logged_in", "nothing was stored")
    simulated.finish()
  }

  @Test func takenIsAlreadyExistsOnRegister() throws {
    let simulated = try SimulatedFixture("register")
    defer { simulated.cleanUp() }
    let password = "correct horse battery staple"
    let taken = simulated.sidecar.call("register", ["username": "taken", "password": password])
    #expect(taken.errorKind == "already_exists" && taken.errorData?["field"] as? String == "username", "\(taken)")
    let email = simulated.sidecar.call(
      "register", ["username": "bob", "email": "taken@example.com", "password": password])
    #expect(email.errorData?["field"] as? String == "email", "\(email)")
    let made = simulated.sidecar.call("register", ["username": "bob", "password": password])
    #expect((made.result?["user"] as? [String: Any])?["username"] as? String == "bob", "\(made)")
    simulated.finish()
  }

  @Test func statusSaysItIsSimulatedAndNotForProduction() throws {
    let simulated = try SimulatedFixture("status")
    defer { simulated.cleanUp() }
    let status = simulated.sidecar.call("status")
    let profile = try #require((status.result?["profiles"] as? [[String: Any]])?.first)
    #expect(profile["provider"] as? String == "simulated")
    #expect((profile["warning"] as? String)?.contains("never use it in production") == true, "\(profile)")
    #expect(profile["loginFlows"] as? [String] == ["password", "device"])
    #expect(profile["codeFlows"] as? [String] == ["verify"])
    #expect(simulated.finish().contains("simulated provider"), "stderr says so at start too")
  }
}
