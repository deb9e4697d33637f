import Foundation
import Testing

/// The login lock through the real binary: 100 failed logins lock the account (no wait ends it), and
/// `auth-sidecar users unlock` lifts it.
@Suite struct LoginLockEndToEndTests {
  static let options = StateFixture.cheapKDF + ["--test-clock", "2027-01-01T00:00:00Z"]
  static var credentials: [String: Any] { ["username": "lock_user", "password": "Lock-test-password-42"] }

  @Test func aHundredFailuresLockTheAccountUntilUsersUnlock() throws {
    let fixture = try StateFixture("login-lock")
    defer { fixture.remove() }
    let registered = try SidecarCommand.call("register", Self.credentials, fixture: fixture, options: Self.options)
    try #require(registered.status == 0, "register: \(registered.stdout)")

    let sidecar = try LiveSidecar(
      ["--log-level", "error"] + Self.options, environment: fixture.environment,
      workingDirectory: fixture.workingDirectory)
    let wrong = Self.credentials.merging(["password": "not-the-password"]) { $1 }
    for attempt in 0..<100 {
      // Past every block (at most 300 s), so each attempt is checked and counted.
      sidecar.send(RPCLine.line(2 * attempt, "test.advanceClock", ["seconds": 301]))
      _ = sidecar.readAnswer()
      sidecar.send(RPCLine.line(2 * attempt + 1, "login", wrong))
      let failed = sidecar.readAnswer()
      #expect(failed?.errorKind == "invalid_credentials", "attempt \(attempt): \(failed ?? [:])")
    }
    sidecar.send(RPCLine.line(1000, "test.advanceClock", ["seconds": 86_400]))
    _ = sidecar.readAnswer()
    sidecar.send(RPCLine.line(1001, "login", Self.credentials))
    let locked = (sidecar.readAnswer()?["error"] as? [String: Any])?["data"] as? [String: Any]
    #expect(locked?["kind"] as? String == "rate_limited")
    #expect(locked?["reason"] as? String == "locked")
    #expect(locked?["retryable"] as? Bool == false)
    #expect(locked?["retryAfter"] == nil)
    sidecar.closeInput()
    #expect(sidecar.finish() == 0)

    let unlock = try LiveSidecar(
      ["users", "unlock", "LOCK_USER"] + Self.options, environment: fixture.environment,
      workingDirectory: fixture.workingDirectory)
    unlock.closeInput()
    _ = unlock.readToEnd()
    #expect(unlock.finish() == 0)
    let login = try SidecarCommand.call("login", Self.credentials, fixture: fixture, options: Self.options)
    #expect(login.status == 0, "login after unlock: \(login.stdout)")
  }
}
