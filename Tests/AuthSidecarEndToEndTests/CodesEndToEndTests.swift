import Foundation
import Testing

/// One-time codes through the real binary, the real delivery script and real SQLite files: where a code travels
/// (stdin only), how guessing one ends, and that the resend cooldown lives in the store.
@Suite(.serialized) struct CodesEndToEndTests {
  @Test func theCodeReachesTheDeliveryCommandOnStdinOnlyAndLogsInOnce() throws {
    let fixture = try CodesFixture("codes-stdin")
    defer { fixture.remove() }
    let sidecar = try fixture.start(["--log-level", "trace"], captureStderr: true)
    let sent = sidecar.call(1, "sendCode", ["account": "13812345678", "purpose": "login"])
    #expect(sent.result?["sentTo"] as? String == "+86 138****5678")
    #expect(sent.result?["channel"] as? String == "sms")
    let delivery = try #require(fixture.deliveries.last)
    let message = try #require(delivery["message"] as? [String: Any])
    let code = try #require(message["code"] as? String)
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    #expect(message["to"] as? String == CodesFixture.phone)
    #expect(message["purpose"] as? String == "login")
    #expect(message["expiresAt"] as? String == "2027-01-01T00:05:00Z")
    // The delivery command's own view of its argv and environment, read from /proc/self by it.
    #expect(!(delivery["cmdline"] as? String ?? code).contains(code))
    #expect(!(delivery["environ"] as? String ?? code).contains(code))
    #expect(!(delivery["environ"] as? String ?? "AUTH_SIDECAR_KEY").contains("AUTH_SIDECAR_KEY"))
    #expect(!sidecar.commandLine.contains(code) && !sidecar.environmentBlock.contains(code))

    let login = sidecar.call(2, "login", ["account": "13812345678", "code": code])
    #expect(login.accessToken != nil, "\(login)")
    let again = sidecar.call(3, "login", ["account": "13812345678", "code": code])
    #expect(again.errorKind == "invalid_credentials")
    #expect(again.errorData?["reason"] as? String == "invalid_code")
    #expect(sidecar.finish() == 0)
    let stderr = sidecar.stderrText()
    #expect(stderr.contains("code not accepted"), "trace logging ran")
    #expect(!stderr.contains(code))
    // Only a keyed hash is stored: the code is in no file of the state directory.
    for (path, bytes) in StateFixture.files(under: fixture.state.stateDirectory) {
      #expect(bytes.range(of: Data(code.utf8)) == nil, "\(path)")
    }
  }

  @Test func guessingACodeEndsAfterFiveTries() throws {
    let fixture = try CodesFixture("codes-brute")
    defer { fixture.remove() }
    let sidecar = try fixture.start()
    #expect(sidecar.call(1, "sendCode", ["account": CodesFixture.email, "purpose": "login"]).result != nil)
    let code = try #require(fixture.lastCode)
    let wrong = (0..<5).map { String(format: "%06d", (Int(code)! + 1 + $0) % 1_000_000) }
    for (index, guess) in wrong.enumerated() {
      let answer = sidecar.call(2 + index, "login", ["account": CodesFixture.email, "code": guess])
      #expect(answer.errorData?["reason"] as? String == "invalid_code")
    }
    // Five wrong tries used the code up: the right one no longer works.
    let right = sidecar.call(10, "login", ["account": CodesFixture.email, "code": code])
    #expect(right.errorData?["reason"] as? String == "invalid_code")
    #expect(sidecar.finish() == 0)
  }

  @Test func theCooldownHoldsInASecondProcessAndAfterARestart() throws {
    let fixture = try CodesFixture("codes-cooldown")
    defer { fixture.remove() }
    let first = try fixture.start()
    let second = try fixture.start()
    #expect(first.call(1, "sendCode", ["account": CodesFixture.email, "purpose": "login"]).result != nil)
    let refused = second.call(1, "sendCode", ["account": "alice", "purpose": "login", "channel": "email"])
    #expect(refused.errorKind == "rate_limited")
    #expect(refused.errorData?["resendAt"] as? String == "2027-01-01T00:01:00Z")
    #expect(refused.errorData?["retryAfter"] as? Int == 60)
    // Another purpose has its own cooldown.
    #expect(second.call(2, "sendCode", ["account": CodesFixture.email, "purpose": "resetPassword"]).result != nil)
    #expect(first.finish() == 0 && second.finish() == 0)
    let restarted = try fixture.start()
    let afterRestart = restarted.call(1, "sendCode", ["account": CodesFixture.email, "purpose": "login"])
    #expect(afterRestart.errorKind == "rate_limited")
    #expect(restarted.call(2, "test.advanceClock", ["seconds": 60]).result != nil)
    #expect(restarted.call(3, "sendCode", ["account": CodesFixture.email, "purpose": "login"]).result != nil)
    #expect(restarted.finish() == 0)
    #expect(fixture.deliveries.count == 3)
  }

  @Test func unknownAccountsGetTheSameAnswerShape() throws {
    let fixture = try CodesFixture("codes-unknown")
    defer { fixture.remove() }
    let sidecar = try fixture.start()
    let known = sidecar.call(1, "sendCode", ["account": CodesFixture.email, "purpose": "resetPassword"])
    let unknown = sidecar.call(2, "sendCode", ["account": "nobody@example.com", "purpose": "resetPassword"])
    #expect(Set(known.result?.keys ?? [:].keys) == ["sentTo", "channel", "resendAt", "expiresAt"])
    #expect(Set(unknown.result?.keys ?? [:].keys) == Set(known.result?.keys ?? [:].keys))
    #expect(unknown.result?["sentTo"] as? String == "n***@example.com")
    let params = ["account": "nobody@example.com", "code": fixture.lastCode ?? "", "newPassword": "x y z w v u"]
    let reset = sidecar.call(3, "resetPassword", params)
    #expect(reset.errorData?["reason"] as? String == "invalid_code")
    #expect(sidecar.finish() == 0)
  }

  @Test func aFailedDeliveryIsRetryableAndDoesNotStartTheCooldown() throws {
    let fixture = try CodesFixture("codes-failing")
    defer { fixture.remove() }
    let sidecar = try fixture.start()
    // The recording script refuses destinations starting with "fail", as a gateway would.
    let failed = sidecar.call(1, "sendCode", ["account": "fail@example.com", "purpose": "register"])
    #expect(failed.errorKind == "server_error")
    #expect(failed.errorData?["reason"] as? String == "delivery_failed")
    #expect(failed.errorData?["retryable"] as? Bool == true)
    let retried = sidecar.call(2, "sendCode", ["account": "fail@example.com", "purpose": "register"])
    #expect(retried.errorData?["reason"] as? String == "delivery_failed", "not rate_limited: \(retried)")
    #expect(sidecar.finish() == 0)
  }

  @Test func withoutADeliveryCommandSendCodeIsUnsupported() throws {
    let fixture = try CodesFixture("codes-none", delivery: false)
    defer { fixture.remove() }
    let sidecar = try fixture.start()
    #expect(sidecar.call(1, "sendCode", ["account": CodesFixture.email, "purpose": "login"]).errorKind == "unsupported")
    let status = sidecar.call(2, "status")
    let profiles = status.result?["profiles"] as? [[String: Any]]
    #expect(profiles?.first?["codeFlows"] as? [String] == ["verify"])
    #expect(sidecar.finish() == 0)
  }
}
