import AuthJSON
import Testing

@testable import AuthConfig

/// The `rest` provider's `response`: success and unknown-account rules in their three forms, tokenless logins,
/// and the configs refused because they could not tell a refused login from an accepted one.
@Suite struct RESTResponseSettingTests {
  static let login = #"""
    "baseURL": "https://api.example.com",
    "login": {"path": "/login.php", "encoding": "form", "body": {"User_Account": "{account}",
              "User_Password": "{password}"}}
    """#

  static func rest(response: String, extra: String = "") -> String {
    RESTProviderSettingTests.rest(replacing: login + #", "response": {\#(response)}"# + (extra.isEmpty ? "" : ", ")
      + extra)
  }

  static func response(_ text: String) throws -> RESTProviderConfig.ResponseFields {
    try RESTProviderSettingTests.settings(rest(response: text)).response
  }

  static func path(_ text: String) -> RESTProviderConfig.FieldPath { RESTProviderConfig.FieldPath(parsing: text)! }

  @Test func aPathIsTheBooleanTrue() throws {
    let response = try Self.response(#""accessToken": "token", "success": "data.ok""#)
    #expect(response.success == AnswerRule([.init(Self.path("data.ok"), equals: .bool(true))]))
    #expect(response.unknownAccount == nil)
  }

  @Test func aConditionComparesWithAnyJSONValue() throws {
    let response = try Self.response(
      #""success": {"path": "loginOKOrNotFlag", "equals": "1"}, "#
        + #""unknownAccount": [{"path": "accountBeingOrNotFlag", "equals": "0"}, "flags.known", "#
        + #"{"path": "code", "equals": null}]"#)
    #expect(response.accessToken == nil)
    #expect(response.success == AnswerRule([.init(Self.path("loginOKOrNotFlag"), equals: .string("1"))]))
    let unknown = try #require(response.unknownAccount)
    #expect(unknown.conditions.map(\.expected) == [.string("0"), .bool(true), .null])
    #expect(unknown.description == "accountBeingOrNotFlag and flags.known and code")
  }

  @Test func tokenlessLoginsAreAllowedWithASuccessRule() throws {
    let rest = try RESTProviderSettingTests.settings(
      Self.rest(response: #""success": {"path": "ok", "equals": 1}, "expiresIn": "ttl""#,
        extra: #""user": {"path": "/me"}, "sessionLifetimeSeconds": 3600"#))
    #expect(rest.isTokenless)
    #expect(rest.response.expiresIn?.description == "ttl")
    #expect(rest.sessionLifetimeSeconds == 3600)
  }

  @Test func theSessionLifetimeDefaultsAsTheFormProvidersDoes() throws {
    let rest = try RESTProviderSettingTests.settings(Self.rest(response: #""accessToken": "t""#))
    #expect(rest.sessionLifetimeSeconds == SessionLifetime.defaultSeconds)
    #expect(!rest.isTokenless)
    for bad in ["59", "31536001", "\"1h\""] {
      RESTProviderSettingTests.expect(
        Self.rest(response: #""accessToken": "t""#, extra: #""sessionLifetimeSeconds": \#(bad)"#),
        path: "profiles.default.rest.sessionLifetimeSeconds")
    }
  }

  /// A config that could never tell a refused login from an accepted one stops the sidecar at start.
  @Test func neitherTokenNorSuccessRuleIsRefused() {
    RESTProviderSettingTests.expect(
      Self.rest(response: #""user": "data.user""#), path: "profiles.default.rest.response.accessToken")
    RESTProviderSettingTests.expect(
      Self.rest(response: #""success": []"#), path: "profiles.default.rest.response.success",
      message: #"has no condition, so it could never be false; give at least one: a field path (the boolean true), "#
        + #"{"path": "…", "equals": <value>}, or an array of them"#)
    RESTProviderSettingTests.expect(
      Self.rest(response: #""accessToken": "t", "unknownAccount": []"#),
      path: "profiles.default.rest.response.unknownAccount")
  }

  @Test func malformedConditionsNameTheirPlace() {
    let cases = [
      (#""success": {"path": "ok"}"#, "profiles.default.rest.response.success.equals"),
      (#""success": {"equals": 1}"#, "profiles.default.rest.response.success.path"),
      (#""success": {"path": "ok", "equals": 1, "not": 2}"#, "profiles.default.rest.response.success.not"),
      (#""success": {"path": "a..b", "equals": 1}"#, "profiles.default.rest.response.success.path"),
      (#""success": ["ok", 7]"#, "profiles.default.rest.response.success.1"),
      (#""success": true"#, "profiles.default.rest.response.success"),
      (#""success": ["ok", {"path": "", "equals": 1}]"#, "profiles.default.rest.response.success.1.path"),
      (#""accessToken": "t", "unknownAccount": "a.""#, "profiles.default.rest.response.unknownAccount"),
    ]
    for (response, path) in cases {
      RESTProviderSettingTests.expect(Self.rest(response: response), path: path)
    }
  }

  /// Fields and endpoints that name a token mean nothing to a tokenless login: a config with them expects one.
  @Test func tokenlessLoginsRefuseWhatNeedsAToken() {
    let tokenless = #""success": "ok""#
    RESTProviderSettingTests.expect(
      Self.rest(response: tokenless + #", "refreshToken": "r""#), path: "profiles.default.rest.response.refreshToken")
    RESTProviderSettingTests.expect(
      Self.rest(response: tokenless + #", "tokenType": "t""#), path: "profiles.default.rest.response.tokenType")
    RESTProviderSettingTests.expect(
      Self.rest(response: tokenless, extra: #""refresh": {"path": "/r", "body": {"r": "{refreshToken}"}}"#),
      path: "profiles.default.rest.refresh")
    RESTProviderSettingTests.expect(
      Self.rest(response: tokenless, extra: #""logout": {"path": "/out", "sendAccessToken": true}"#),
      path: "profiles.default.rest.logout")
  }
}
