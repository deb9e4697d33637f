import Foundation
import Testing

/// The second login step after failed passwords, and a password reset ending the account's sessions, through
/// the real binary and the real delivery script.
@Suite(.serialized) struct StepUpEndToEndTests {
  @Test func threeFailuresThenTheRightPasswordNeedsAnSMSCode() throws {
    let fixture = try CodesFixture("stepup")
    defer { fixture.remove() }
    let sidecar = try fixture.start(["--log-level", "trace"], captureStderr: true)
    for id in 1...3 {
      #expect(sidecar.call(id, "login", ["account": "13812345678", "password": "wrong \(id)"]).errorKind
        == "invalid_credentials")
    }
    let demanded = sidecar.call(4, "login", ["account": "13812345678", "password": CodesFixture.password])
    #expect(demanded.errorKind == "verification_required", "\(demanded)")
    let data = try #require(demanded.errorData)
    let challenge = try #require(data["challenge"] as? String)
    #expect(data["methods"] as? [String] == ["sms"])
    #expect(data["sentTo"] as? String == "+86 138****5678")
    #expect(data["resendAt"] as? String == "2027-01-01T00:01:00Z")
    let code = try #require(fixture.lastCode)
    #expect((fixture.deliveries.last?["message"] as? [String: Any])?["to"] as? String == CodesFixture.phone)

    let wrong = sidecar.call(5, "login", ["challenge": challenge, "code": code == "000000" ? "111111" : "000000"])
    #expect(wrong.errorData?["reason"] as? String == "invalid_code")
    // A resend inside the cooldown is refused with when it may be sent.
    #expect(sidecar.call(6, "sendCode", ["challenge": challenge]).errorKind == "rate_limited")
    let done = sidecar.call(7, "login", ["challenge": challenge, "code": code])
    #expect(done.accessToken != nil, "the challenge survived one wrong code: \(done)")
    #expect(sidecar.call(8, "login", ["challenge": challenge, "code": code]).errorKind == "invalid_credentials")
    // Both steps passed: the failures are forgotten, the next login needs the password only.
    #expect(sidecar.call(9, "login", ["account": "alice", "password": CodesFixture.password]).accessToken != nil)
    #expect(sidecar.finish() == 0)
    let stderr = sidecar.stderrText()
    #expect(!stderr.contains(challenge) && !stderr.contains(code))
  }

  @Test func aResetEndsTheSessionAndTheOldPassword() throws {
    let fixture = try CodesFixture("reset")
    defer { fixture.remove() }
    let sidecar = try fixture.start()
    #expect(sidecar.call(1, "login", ["account": "alice", "password": CodesFixture.password]).accessToken != nil)
    #expect(sidecar.call(2, "sendCode", ["account": "alice", "purpose": "resetPassword"]).result != nil)
    let code = try #require(fixture.lastCode)
    let weak = sidecar.call(3, "resetPassword", ["account": "alice", "code": code, "newPassword": "short"])
    let fields = weak.errorData?["fields"] as? [String: Any]
    #expect(weak.errorKind == "validation_failed" && fields?["newPassword"] != nil, "\(weak)")
    let newPassword = "a brand new horse staple"
    var notifications: [[String: Any]] = []
    _ = sidecar.send(RPCLine.line(4, "resetPassword", ["account": "alice", "code": code, "newPassword": newPassword]))
    let reset = sidecar.readAnswer(timeout: 60, notifications: &notifications)
    #expect(reset?.result?["reset"] as? Bool == true, "\(reset ?? [:])")
    #expect(notifications.contains { ($0["params"] as? [String: Any])?["state"] as? String == "expired" })
    #expect(sidecar.call(5, "getUser").errorKind == "not_logged_in")
    #expect(sidecar.call(6, "login", ["account": "alice", "password": CodesFixture.password]).errorKind
      == "invalid_credentials")
    #expect(sidecar.call(7, "login", ["account": "alice", "password": newPassword]).accessToken != nil)
    #expect(sidecar.finish() == 0)
  }
}
