import Foundation
import Testing

/// The `rest` provider's code flows through the real binary against the phone-first SMS API of Tests/Servers
/// (`/sms/*`, see `authservers/core/codeapi.py`): it demands an SMS code after 3 wrong passwords, refuses a resend
/// within 120 s with 429 + `Retry-After`, and "sends" codes to an outbox the tests read — so a test types the code
/// a user would have received. The server's own clock is moved through `/_test/sms/clock`; nothing is injected.
///
/// Each test makes its own account (`/_test/sms/users`), so the server's in-memory state of one test never meets
/// another's. The server compares phones exactly, so the accounts are in E.164, as the sidecar normalizes them.
@Suite(.serialized) struct RESTCodeFlowsEndToEndTests {
  static let password = "correct horse battery staple"

  @Test func threeFailuresDemandAnSMSCodeThenTheChallengeLogsIn() throws {
    // No cooldown of the sidecar's own: the second send below reaches the server, whose 429 is what is tested.
    let harness = try Harness("stepup", cooldownSeconds: 0)
    defer { harness.stop() }
    let phone = try harness.newAccount("+8613900139001")
    let sidecar = try harness.sidecar(logLevel: "trace")
    for _ in 0..<3 {
      let wrong = sidecar.call("login", ["account": phone, "password": "not the password"])
      #expect(wrong.errorKind == "invalid_credentials", "\(wrong)")
    }
    let started = Date().timeIntervalSince1970
    let demanded = sidecar.call("login", ["account": phone, "password": Self.password])
    #expect(demanded.errorKind == "verification_required", "\(demanded)")
    let data = try #require(demanded.errorData)
    #expect(data["methods"] as? [String] == ["sms"])
    let challenge = try #require(data["challenge"] as? String)
    #expect(challenge.hasPrefix("ch_"))
    let challengeExpiry = try #require(unixTime(data["expiresAt"]))
    #expect(abs(challengeExpiry - (started + 300)) < 30, "codes.ttlSeconds by default: \(data)")
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")

    let sent = sidecar.call("sendCode", ["challenge": challenge])
    let result = try #require(sent.result, "\(sent)")
    #expect(result["sentTo"] as? String == "+86 139****9001")
    #expect(result["channel"] as? String == "sms")
    #expect(abs(try #require(unixTime(result["resendAt"])) - (started + 120)) < 30)  // the server's cooldown
    #expect(abs(try #require(unixTime(result["expiresAt"])) - (started + 300)) < 30)
    let code = try #require(try harness.codes(phone).last, "the server sent no code")

    // Inside the server's 120 s: its 429 + Retry-After reaches the host as a countdown.
    let again = sidecar.call("sendCode", ["challenge": challenge])
    #expect(again.errorKind == "rate_limited", "\(again)")
    let retryAfter = try #require(again.errorData?["retryAfter"] as? Int)
    #expect((100...120).contains(retryAfter))
    #expect(abs(try #require(unixTime(again.errorData?["resendAt"])) - (started + Double(retryAfter))) < 30)
    #expect(try harness.codes(phone).count == 1, "nothing sent inside the cooldown")

    let wrongCode = sidecar.call("login", ["challenge": challenge, "code": Self.other(than: code)])
    #expect(wrongCode.errorKind == "invalid_credentials", "\(wrongCode)")
    #expect(wrongCode.errorData?["reason"] as? String == "invalid_code")
    let login = sidecar.call("login", ["challenge": challenge, "code": code])
    #expect(login.user?["phone"] as? String == phone, "\(login)")
    #expect(login.user?["displayName"] as? String == "李雷")
    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "\(fetched)")
    #expect(fetched.user?["id"] as? String == "u9001")
    // A challenge is single use.
    #expect(sidecar.call("login", ["challenge": challenge, "code": code]).errorKind == "invalid_credentials")

    let status = sidecar.call("status")
    let profile = (status.result?["profiles"] as? [[String: Any]])?.first
    #expect(profile?["codeFlows"] as? [String] == ["sendCode", "loginWithCode", "verify", "resetPassword"])
    let stderr = sidecar.finish()
    #expect(stderr.contains("/sms/verify"), "trace shows requests")
    for secret in [code, challenge, Self.password] { #expect(!stderr.contains(secret), "a secret in stderr") }
  }

  @Test func aCodeLoginTakesAWrongCodeThenTheRightOneAndAnExpiredOneIsSaidSo() throws {
    // No cooldown of the sidecar's own: the server's clock is moved past its own to send again.
    let harness = try Harness("code-login", cooldownSeconds: 0)
    defer { harness.stop() }
    let phone = try harness.newAccount("+8613900139002")
    let sidecar = try harness.sidecar()
    let sent = sidecar.call("sendCode", ["account": phone, "purpose": "login"])
    #expect(sent.result?["sentTo"] as? String == "+86 139****9002", "\(sent)")
    let code = try #require(try harness.codes(phone).last)
    let wrong = sidecar.call("login", ["account": phone, "code": Self.other(than: code)])
    #expect(wrong.errorData?["reason"] as? String == "invalid_code", "\(wrong)")
    let login = sidecar.call("login", ["account": phone, "code": code])
    #expect(login.user?["id"] as? String == "u9002", "\(login)")
    #expect(sidecar.call("login", ["account": phone, "code": code]).errorData?["reason"] as? String == "invalid_code")

    // Past the server's cooldown a new code goes out; past its 300 s life the server says it expired.
    try harness.advanceServerClock(121)
    #expect(sidecar.call("sendCode", ["account": phone, "purpose": "login"]).result != nil)
    let late = try #require(try harness.codes(phone).last)
    try harness.advanceServerClock(301)
    let expired = sidecar.call("login", ["account": phone, "code": late])
    #expect(expired.errorKind == "invalid_credentials", "\(expired)")
    #expect(expired.errorData?["reason"] as? String == "code_expired")

    // An unknown phone gets the same answer shape, and the server sends nothing.
    let before = try harness.outbox().count
    let unknown = sidecar.call("sendCode", ["account": "+8613700000000", "purpose": "login"])
    #expect(Set((unknown.result ?? [:]).keys) == Set((sent.result ?? [:]).keys), "\(unknown)")
    #expect(try harness.outbox().count == before)
    // The API offers no register codes: the profile's purposes say so before anything is sent.
    #expect(sidecar.call("sendCode", ["account": phone, "purpose": "register"]).errorKind == "unsupported")
    _ = sidecar.finish()
  }

  @Test func aResetEndsTheSessionAndOnlyTheNewPasswordLogsIn() throws {
    let harness = try Harness("reset")
    defer { harness.stop() }
    let phone = try harness.newAccount("+8613900139003")
    let sidecar = try harness.sidecar()
    #expect(sidecar.call("login", ["account": phone, "password": Self.password]).accessToken != nil)
    #expect(sidecar.call("sendCode", ["account": phone, "purpose": "resetPassword"]).result != nil)
    let code = try #require(try harness.codes(phone, purpose: "reset").last)
    let newPassword = "a brand new passphrase 42"
    let wrong = sidecar.call(
      "resetPassword", ["account": phone, "code": Self.other(than: code), "newPassword": newPassword])
    #expect(wrong.errorData?["reason"] as? String == "invalid_code", "\(wrong)")
    #expect(sidecar.call("getUser").user != nil, "a refused reset ends nothing")

    let reset = sidecar.call("resetPassword", ["account": phone, "code": code, "newPassword": newPassword])
    #expect(reset.result?["reset"] as? Bool == true, "\(reset)")
    #expect(sidecar.notifications.contains { $0.sessionState == "expired" })
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    #expect(sidecar.call("login", ["account": phone, "password": Self.password]).errorKind == "invalid_credentials")
    let login = sidecar.call("login", ["account": phone, "password": newPassword])
    #expect(login.user?["phone"] as? String == phone, "\(login)")
    _ = sidecar.finish()
  }

  /// The profile's own cooldown is kept in the store: a second process sharing it, and a restarted one, are
  /// refused without asking the server, even once the server's shorter cooldown has passed.
  @Test func theProfilesCooldownHoldsAcrossProcessesAndRestartsWithoutAskingTheServer() throws {
    let harness = try Harness("cooldown", cooldownSeconds: 300)
    defer { harness.stop() }
    let phone = try harness.newAccount("+8613900139004")
    let first = try harness.sidecar()
    let started = Date().timeIntervalSince1970
    let sent = first.call("sendCode", ["account": phone, "purpose": "login"])
    let resendAt = try #require(unixTime(sent.result?["resendAt"]), "\(sent)")
    #expect(abs(resendAt - (started + 300)) < 30, "the longer of the two cooldowns: \(sent)")
    #expect(try harness.codes(phone).count == 1)
    try harness.advanceServerClock(200)  // the server's own 120 s are over

    let second = try harness.sidecar()
    let refused = second.call("sendCode", ["account": phone, "purpose": "login"])
    #expect(refused.errorKind == "rate_limited", "\(refused)")
    let retryAfter = try #require(refused.errorData?["retryAfter"] as? Int)
    #expect((250...300).contains(retryAfter), "\(refused)")
    #expect(abs(try #require(unixTime(refused.errorData?["resendAt"])) - resendAt) < 5)
    _ = first.finish()
    _ = second.finish()

    let restarted = try harness.sidecar()
    #expect(restarted.call("sendCode", ["account": phone, "purpose": "login"]).errorKind == "rate_limited")
    // Another purpose is another cooldown.
    let reset = restarted.call("sendCode", ["account": phone, "purpose": "resetPassword"])
    #expect(reset.result?["sentTo"] as? String == "+86 139****9004", "\(reset)")
    _ = restarted.finish()
    #expect(try harness.codes(phone).count == 1, "no login code sent inside the profile's cooldown")
    #expect(try harness.codes(phone, purpose: "reset").count == 1)
  }

  /// A six-digit code that is not `code`.
  static func other(than code: String) -> String { code == "000000" ? "111111" : "000000" }
}

extension RESTCodeFlowsEndToEndTests {
  /// One Django server, a state dir and a config file describing the SMS API, for one test.
  final class Harness: ServerHarness {
    /// - Parameter cooldownSeconds: the profile's `codes.resendCooldownSeconds`, kept by the sidecar itself.
    init(_ name: String, cooldownSeconds: Int = 60) throws {
      try super.init("rest-codes-\(name)") { url in Self.config(url: url, cooldownSeconds: cooldownSeconds) }
    }

    /// Creates `phone`'s account at the server (name 李雷, the suite's password).
    func newAccount(_ phone: String) throws -> String {
      let body: [String: Any] = ["phone": phone, "password": RESTCodeFlowsEndToEndTests.password, "name": "李雷"]
      _ = try LoopbackHTTP.postJSON(server.url + "/_test/sms/users", body)
      return phone
    }

    /// Every code the server "sent", oldest first.
    func outbox() throws -> [[String: Any]] {
      let answer = try LoopbackHTTP.get(server.url + "/_test/sms/outbox")
      return answer.json?["outbox"] as? [[String: Any]] ?? []
    }

    func codes(_ phone: String, purpose: String = "login") throws -> [String] {
      try outbox().filter { $0["phone"] as? String == phone && $0["purpose"] as? String == purpose }
        .compactMap { $0["code"] as? String }
    }

    func advanceServerClock(_ seconds: Int) throws {
      _ = try LoopbackHTTP.postJSON(server.url + "/_test/sms/clock", ["advance": seconds])
    }

    /// The README's worked config for this API shape, as written there, with this server's URL: what a user
    /// copies is what is tested.
    static func config(url: String, cooldownSeconds: Int) -> String {
      let readme = SidecarProcess.repositoryRoot.appendingPathComponent("README.md")
      let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""
      let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
      // Missing, the config is empty and the sidecar refuses to start: the test fails, it cannot pass vacuously.
      let rest = blocks.first { $0.contains("/sms/verify") } ?? ""
      let profile = rest.replacingOccurrences(of: "https://api.example.com", with: url)
      let codes = #""codes": {"resendCooldownSeconds": \#(cooldownSeconds)}, "#
      return #"{"profiles": {"default": {"provider": "rest", "# + codes + profile + "}}}"
    }
  }
}
