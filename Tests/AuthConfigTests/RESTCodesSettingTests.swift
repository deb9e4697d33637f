import AuthJSON
import Foundation
import Testing

@testable import AuthConfig

/// The `rest` provider's code flows in the config: the four endpoints (templates checked like `login`'s),
/// `sendCode.purposes`, and the `response` rules that read their answers; a step-up that could be detected but
/// never completed (or the reverse) is refused at start.
@Suite struct RESTCodesSettingTests {
  typealias Fixture = RESTProviderSettingTests

  static let endpoints = #"""
    "sendCode": {"path": "/sms/send", "body": {"phone": "{account}", "purpose": "{purpose}", "via": "{channel}",
                 "challenge": "{challenge}"}, "purposes": {"login": "login", "resetPassword": "reset"}},
    "loginWithCode": {"path": "/sms/login_code", "encoding": "form", "body": {"phone": "{account}", "code": "{code}"}},
    "verify": {"path": "/sms/verify", "body": {"challenge": "{challenge}", "code": "{code}"}},
    "resetPassword": {"path": "/sms/reset", "body": {"phone": "{account}", "code": "{code}", "pw": "{newPassword}"}}
    """#
  static let response = #"""
    "response": {"accessToken": "token",
      "verificationRequired": {"path": "error", "equals": "SMS_REQUIRED"}, "challenge": "data.challenge",
      "verificationMethods": ["sms", "totp"], "challengeExpiresIn": "ttl", "sentTo": "to",
      "tooSoon": [{"path": "ok", "equals": false}, {"path": "code", "equals": 1042}], "retryAfter": "wait",
      "resendIn": "cooldown", "codeExpiresIn": "expiresIn", "invalidCode": "badCode",
      "codeExpired": {"path": "error", "equals": "CODE_EXPIRED"}}
    """#

  /// The minimal login plus `members`.
  static func rest(_ members: String) -> String {
    Fixture.rest(
      replacing: #""baseURL": "https://api.example.com", "#
        + #""login": {"path": "/login", "body": {"phone": "{account}", "password": "{password}"}}, "# + members)
  }

  static func path(_ text: String) -> RESTProviderConfig.FieldPath { RESTProviderConfig.FieldPath(parsing: text)! }

  @Test func theFullShapeParses() throws {
    let rest = try Fixture.settings(Self.rest(Self.endpoints + ", " + Self.response))
    let codes = rest.codes
    #expect(rest.url(try #require(codes.sendCode)) == "https://api.example.com/sms/send")
    #expect(codes.sendCode?.body.map(\.template.placeholders) == [[.account], [.purpose], [.channel], [.challenge]])
    #expect(codes.purposes == ["login": "login", "resetPassword": "reset"])
    #expect(codes.loginWithCode?.encoding == .form)
    #expect(codes.verify?.body.flatMap(\.template.placeholders) == [.challenge, .code])
    #expect(codes.resetPassword?.body.last?.template.placeholders == [.newPassword])
    let answers = codes.answers
    #expect(answers.verificationRequired == AnswerRule([.init(Self.path("error"), equals: "SMS_REQUIRED")]))
    #expect(answers.challenge == Self.path("data.challenge"))
    #expect(answers.verificationMethods == .list(["sms", "totp"]))
    #expect(answers.tooSoon?.conditions.count == 2)
    #expect(answers.tooSoon?.conditions.last?.expected == .number(JSONNumber(1042)))
    #expect(answers.invalidCode == AnswerRule([.init(Self.path("badCode"))]), "a path alone means true")
    #expect(answers.retryAfter == Self.path("wait") && answers.resendIn == Self.path("cooldown"))
    #expect(answers.codeExpiresIn == Self.path("expiresIn") && answers.challengeExpiresIn == Self.path("ttl"))
    #expect(answers.sentTo == Self.path("to"))
  }

  /// The README's worked config for an SMS API loads as written, and offers every flow.
  @Test func theREADMEConfigLoads() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let block = try #require(blocks.first { $0.contains("/sms/verify") }, "no SMS API config in the README")
    let codes = try Fixture.settings(ConfigFixtures.profile(#""provider": "rest", "# + block)).codes
    #expect(codes.sendCode != nil && codes.loginWithCode != nil && codes.verify != nil && codes.resetPassword != nil)
    #expect(codes.purposes == ["login": "login", "resetPassword": "reset"])
  }

  @Test func withoutCodeSettingsNothingIsOffered() throws {
    let rest = try Fixture.settings(Fixture.rest())
    #expect(rest.codes == .none)
    #expect(rest.codes.answers.verificationMethods == .byAccountKind)
  }

  @Test func purposesDefaultToTheFlowsConfigured() throws {
    let onlyLogin = try Fixture.settings(
      Self.rest(
        #""sendCode": {"path": "/s", "body": {"p": "{account}"}}, "#
          + #""loginWithCode": {"path": "/c", "body": {"p": "{account}", "c": "{code}"}}, "#
          + #""response": {"accessToken": "t", "verificationMethods": "methods"}"#))
    #expect(onlyLogin.codes.purposes == ["login": "login"])
    #expect(onlyLogin.codes.answers.verificationMethods == .path(Self.path("methods")))
  }

  @Test func aStepUpMustBeCompletable() {
    let verify = #""verify": {"path": "/v", "body": {"c": "{challenge}", "k": "{code}"}}, "#
    Fixture.expect(
      Self.rest(verify + #""response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.response.verificationRequired")
    Fixture.expect(
      Self.rest(#""response": {"accessToken": "t", "verificationRequired": "needsCode", "challenge": "c"}"#),
      path: "profiles.default.rest.verify")
    Fixture.expect(
      Self.rest(verify + #""response": {"accessToken": "t", "verificationRequired": "needsCode"}"#),
      path: "profiles.default.rest.response.challenge")
  }

  @Test func bodiesCarryWhatTheirRequestNeeds() {
    Fixture.expect(
      Self.rest(#""loginWithCode": {"path": "/c", "body": {"p": "{account}"}}, "response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.loginWithCode.body", message: "must use {code} in one of its values")
    Fixture.expect(
      Self.rest(#""loginWithCode": {"path": "/c", "body": {"c": "{code}"}}, "response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.loginWithCode.body",
      message:
        "must name the account with one of {username}, {account}, {email}, {accountNormalized}, {phoneE164}, "
        + "{phoneNational}, {emailNormalized}, {accountKind}")
    Fixture.expect(
      Self.rest(#""resetPassword": {"path": "/r", "body": {"p": "{account}", "c": "{code}"}}, "#
        + #""response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.resetPassword.body", message: "must use {newPassword} in one of its values")
    Fixture.expect(
      Self.rest(#""sendCode": {"path": "/s", "body": {"p": "{purpose}"}}, "response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.sendCode.body")
    // A code or a challenge has no business in a password login's body, nor a password in a code's.
    Fixture.expect(
      Fixture.rest(replacing: Fixture.minimal.replacing("{username}", with: "{code}")),
      path: "profiles.default.rest.login.body.username")
    Fixture.expect(
      Self.rest(#""verify": {"path": "/v", "body": {"c": "{challenge}", "k": "{code}", "p": "{password}"}}, "#
        + #""response": {"accessToken": "t", "verificationRequired": "x", "challenge": "c"}"#),
      path: "profiles.default.rest.verify.body.p")
  }

  @Test func rulesMethodsAndPurposesAreCheckedAtLoad() {
    let cases: [(String, String)] = [
      (#""tooSoon": []"#, "profiles.default.rest.response.tooSoon"),
      (#""tooSoon": 5"#, "profiles.default.rest.response.tooSoon"),
      (#""invalidCode": {"path": "error"}"#, "profiles.default.rest.response.invalidCode.equals"),
      (#""invalidCode": {"equals": 1}"#, "profiles.default.rest.response.invalidCode.path"),
      (#""codeExpired": [{"path": "a..b", "equals": 1}]"#, "profiles.default.rest.response.codeExpired.0.path"),
      (#""codeExpired": {"path": "e", "equals": 1, "x": 2}"#, "profiles.default.rest.response.codeExpired.x"),
      (#""verificationMethods": ["sms", "pigeon"]"#, "profiles.default.rest.response.verificationMethods.1"),
      (#""verificationMethods": []"#, "profiles.default.rest.response.verificationMethods"),
      (#""retryAfter": ".wait""#, "profiles.default.rest.response.retryAfter"),
    ]
    for (member, path) in cases {
      Fixture.expect(Self.rest(#""response": {"accessToken": "t", "# + member + "}"), path: path)
    }
    let send = #""sendCode": {"path": "/s", "body": {"p": "{account}"}, "purposes": "#
    Fixture.expect(
      Self.rest(send + #"{"signup": "reg"}}, "response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.sendCode.purposes.signup")
    Fixture.expect(
      Self.rest(send + #"{"login": ""}}, "response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.sendCode.purposes.login")
  }
}
