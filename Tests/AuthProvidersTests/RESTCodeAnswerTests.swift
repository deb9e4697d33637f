import AuthConfig
import AuthHTTP
import AuthJSON
import Testing

@testable import AuthProviders

/// How the `rest` provider reads the answers of its code flows: step-up demands, "too soon", wrong and expired
/// codes, and an accepted send — from the configured rules and the status, never from an error message's words.
@Suite struct RESTCodeAnswerTests {
  static func path(_ text: String) -> RESTProviderConfig.FieldPath { RESTProviderConfig.FieldPath(parsing: text)! }
  static func rule(_ path: String, _ value: JSONValue) -> AnswerRule {
    AnswerRule([AnswerRule.Condition(Self.path(path), equals: value)])
  }

  static let sms = RESTCodeAnswer(
    answers: RESTProviderConfig.CodeAnswers(
      verificationRequired: rule("error", "SMS_REQUIRED"), challenge: path("challenge"),
      verificationMethods: .path(path("methods")), challengeExpiresIn: path("challengeTTL"),
      sentTo: path("sentTo"), tooSoon: rule("error", "TOO_SOON"), retryAfter: path("retryAfter"),
      resendIn: path("cooldown"), codeExpiresIn: path("expiresIn"), invalidCode: rule("error", "BAD_CODE"),
      codeExpired: rule("error", "CODE_EXPIRED")),
    codes: CodesConfig(ttlSeconds: 300, resendCooldownSeconds: 60))
  /// Nothing configured but the endpoints: every default applies.
  static let bare = RESTCodeAnswer(answers: RESTProviderConfig.CodeAnswers(), codes: CodesConfig())
  static let phone = LoginAccount(kind: .phone, text: "+8613812345678")
  static let now: Int64 = 1_800_000_000

  static func response(_ status: Int, _ body: String, headers: [HTTPHeader] = []) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: Array(body.utf8), finalURL: "https://api.example.com/x")
  }

  static func code(of error: Error) -> ProviderError.Code? { (error as? ProviderError)?.code }

  // MARK: - Step-up

  @Test func aMatchingLoginAnswerOfAnyStatusIsAStepUpWithItsChallenge() throws {
    for status in [200, 401, 403] {
      let body = #"{"ok": false, "error": "SMS_REQUIRED", "challenge": "ch_abc", "methods": ["sms", "fax"]}"#
      let required = try #require(try Self.sms.stepUp(Self.response(status, body), account: Self.phone, now: Self.now))
      #expect(required.challenge == "ch_abc")
      #expect(required.methods == [.sms], "unknown method names are skipped")
      #expect(required.expiresAt == Self.now + 300, "codes.ttlSeconds when the answer gives no lifetime")
      #expect(!required.description.contains("ch_abc"))
    }
    let timed = Self.response(403, #"{"error": "SMS_REQUIRED", "challenge": "c", "challengeTTL": 90}"#)
    #expect(try Self.sms.stepUp(timed, account: Self.phone, now: Self.now)?.expiresAt == Self.now + 90)
  }

  @Test func anAnswerTheConditionDoesNotMatchIsNoStepUp() throws {
    for body in [#"{"error": "BAD_CREDENTIALS"}"#, #"{"error": ["SMS_REQUIRED"]}"#, "not json", ""] {
      #expect(try Self.sms.stepUp(Self.response(403, body), account: Self.phone, now: Self.now) == nil, "\(body)")
    }
    let unconfigured = Self.response(403, #"{"error": "SMS_REQUIRED", "challenge": "c"}"#)
    #expect(try Self.bare.stepUp(unconfigured, account: Self.phone, now: Self.now) == nil)
  }

  @Test func aStepUpWithoutAChallengeAHostCouldSendBackIsABadResponse() {
    for challenge in ["", #""has space""#, "42", "null", "\"" + String(repeating: "x", count: 513) + "\""] {
      let body = #"{"error": "SMS_REQUIRED", "challenge": \#(challenge.isEmpty ? "\"\"" : challenge)}"#
      #expect(throws: ProviderError.self, "\(challenge)") {
        try Self.sms.stepUp(Self.response(403, body), account: Self.phone, now: Self.now)
      }
    }
  }

  @Test func methodsFollowTheConfigOrTheAccountKind() {
    let empty: JSONValue = .object(JSONObject())
    #expect(Self.bare.methods(empty, account: Self.phone) == [.sms])
    #expect(Self.bare.methods(empty, account: LoginAccount(kind: .email, text: "a@example.com")) == [.email])
    #expect(Self.sms.methods(empty, account: Self.phone) == [.sms], "an answer naming none falls back")
    let listed = RESTCodeAnswer(
      answers: RESTProviderConfig.CodeAnswers(verificationMethods: .list(["totp", "email"])), codes: CodesConfig())
    #expect(listed.methods(empty, account: Self.phone) == [.totp, .email])
    #expect(listed.channel(for: Self.phone) == .email, "a resend goes by the first code channel listed")
  }

  // MARK: - Codes refused

  @Test func codeRefusalsComeFromTheConditionsThenTheStatus() {
    let cases: [(Int, String, ProviderError.Code)] = [
      (400, #"{"error": "CODE_EXPIRED"}"#, .codeRefused(.codeExpired)),
      (200, #"{"ok": false, "error": "CODE_EXPIRED"}"#, .codeRefused(.codeExpired)),
      (200, #"{"ok": false, "error": "BAD_CODE"}"#, .codeRefused(.invalidCode)),
      (400, #"{"error": "BAD_CHALLENGE"}"#, .codeRefused(.invalidCode)),
      (401, "", .codeRefused(.invalidCode)),
      (429, "", .rateLimited(retryAfter: nil)),
      (502, #"{"error": "CODE_EXPIRED"}"#, .serverError(status: 502)),
      (503, "", .serverError(status: 503)),
      (404, "", .badResponse),
    ]
    for (status, body, expected) in cases {
      do {
        try Self.sms.checkCode(Self.response(status, body), "test")
        Issue.record("accepted: \(status) \(body)")
      } catch {
        #expect(Self.code(of: error) == expected, "\(status) \(body)")
      }
    }
    #expect(throws: Never.self) { try Self.sms.checkCode(Self.response(200, #"{"ok": true}"#), "test") }
  }

  // MARK: - Sending

  @Test func tooSoonIsACountdownFromTheHeaderTheFieldOrTheCooldown() {
    let cases: [(RESTCodeAnswer, HTTPResponse, Int64)] = [
      (Self.sms, Self.response(429, #"{"retryAfter": 7}"#, headers: [HTTPHeader("Retry-After", "42")]), 42),
      (Self.sms, Self.response(429, #"{"error": "TOO_SOON", "retryAfter": 7}"#), 7),
      (Self.sms, Self.response(200, #"{"ok": false, "error": "TOO_SOON", "retryAfter": "9"}"#), 9),
      (Self.sms, Self.response(400, #"{"error": "TOO_SOON"}"#), 60),
      (Self.bare, Self.response(429, ""), 60),
    ]
    for (reader, response, wait) in cases {
      do {
        try reader.checkTooSoon(response, now: Self.now)
        Issue.record("not refused: \(response.status)")
      } catch {
        #expect(Self.code(of: error) == .codeRateLimited(retryAfter: wait, resendAt: Self.now + wait))
      }
    }
    #expect(throws: Never.self) { try Self.sms.checkTooSoon(Self.response(200, #"{"ok": true}"#), now: Self.now) }
    #expect(throws: Never.self) { try Self.bare.checkTooSoon(Self.response(400, #"{"error": "TOO_SOON"}"#), now: 0) }
  }

  @Test func anAcceptedSendReportsTheMaskedContactAndItsTimes() {
    let answer = try? JSONParser.parse(Array(#"{"ok": true, "cooldown": 120, "expiresIn": 600}"#.utf8))
    let sent = Self.sms.sent(answer, to: Self.phone, channel: .sms, now: Self.now)
    let expected = SentCode(sentTo: "+86 138****5678", channel: .sms, resendAt: Self.now + 120, expiresAt: Self.now + 600)
    #expect(sent == expected)
    let alice = LoginAccount(kind: .email, text: "alice@example.com")
    let defaults = Self.bare.sent(nil, to: alice, channel: .email, now: 0)
    #expect(defaults == SentCode(sentTo: "a***@example.com", channel: .email, resendAt: 60, expiresAt: 300))
    let told = try? JSONParser.parse(Array(#"{"sentTo": "+8613912345678"}"#.utf8))
    #expect(Self.sms.sent(told, to: nil, channel: .sms, now: 0).sentTo == "+86 139****5678", "masked when in clear")
    let masked = try? JSONParser.parse(Array(#"{"sentTo": "139****5678"}"#.utf8))
    #expect(Self.sms.sent(masked, to: nil, channel: .sms, now: 0).sentTo == "139****5678")
    #expect(Self.sms.sent(nil, to: nil, channel: .sms, now: 0).sentTo == "***")
  }

  @Test func contactsAreMaskedByKind() {
    #expect(ContactMask.mask("+14155550123") == "+1 415***0123")
    #expect(ContactMask.mask("+8613812345678") == "+86 138****5678")
    #expect(ContactMask.mask("zhang.wei@example.com") == "z***@example.com")
    #expect(ContactMask.mask("alice") == "***")
  }
}
