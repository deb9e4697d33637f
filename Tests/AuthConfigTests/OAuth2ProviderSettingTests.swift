import Testing

@testable import AuthConfig

/// The `oauth2` provider's settings object: its shape, defaults and the transport rule on every URL.
@Suite struct OAuth2ProviderSettingTests {
  static func oauth2(_ body: String) -> String {
    ConfigFixtures.profile(#""provider": "oauth2", "oauth2": {\#(body)}"#)
  }

  static let minimal = #""issuer": "https://id.example.com", "clientId": "app""#

  static func parsed(_ body: String) throws -> OAuth2ProviderConfig? {
    guard case .oauth2(let settings)? = try ConfigFixtures.parse(oauth2(body)).profile("default")?.provider else {
      return nil
    }
    return settings
  }

  static func expect(
    _ body: String, path: String, message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let error = ConfigFixtures.error(oauth2(body), sourceLocation: sourceLocation)
    #expect(error?.kind == .invalidSetting, sourceLocation: sourceLocation)
    #expect(error?.jsonPath == path, sourceLocation: sourceLocation)
    #expect(error?.message == message, sourceLocation: sourceLocation)
  }

  @Test func theMinimalSettingsTakeTheDefaults() throws {
    let settings = try #require(try Self.parsed(Self.minimal))
    #expect(settings.issuer == "https://id.example.com")
    #expect(settings.clientID == "app")
    #expect(settings.clientSecret == nil)
    #expect(settings.scopes == ["openid", "profile", "email"])
    #expect(!settings.allowPasswordGrant)
    #expect(settings.endpoints == nil)
    #expect(settings.idTokenLeewaySeconds == 60)
    #expect(settings.timeoutSeconds == 30)
  }

  @Test(
    arguments: [
      (Self.minimal, ["device", "authorizationCode"]),
      (Self.minimal + #", "allowPasswordGrant": true"#, ["password", "device", "authorizationCode"]),
      (Self.minimal + #", "allowPasswordGrant": true, "flows": []"#, ["password"]),
      (Self.minimal + #", "flows": ["authorizationCode"]"#, ["authorizationCode"]),
    ])
  func loginFlowsArePasswordWhenAllowedThenTheInteractiveOnes(body: String, flows: [String]) throws {
    let profile = try #require(try ConfigFixtures.parse(Self.oauth2(body)).profile("default"))
    #expect(profile.provider.loginFlows.map(\.rawValue) == flows)
  }

  @Test func everySettingIsRead() throws {
    let settings = try #require(
      try Self.parsed(
        #"""
        "issuer": "http://127.0.0.1:8000/o", "clientId": "sidecar-confidential", "clientSecret": "s3cret",
        "scopes": ["openid", "offline_access"], "allowPasswordGrant": true,
        "endpoints": {"token": "http://127.0.0.1:8000/o/token/?x=1", "revocation": "http://[::1]:8000/r",
                      "userinfo": "http://localhost/u", "jwks": "https://keys.example.com/jwks"},
        "idTokenLeewaySeconds": 0, "timeoutSeconds": 5
        """#))
    #expect(settings.clientSecret == "s3cret")
    #expect(settings.scopes == ["openid", "offline_access"])
    #expect(settings.allowPasswordGrant)
    #expect(
      settings.endpoints
        == OAuth2ProviderConfig.Endpoints(
          token: "http://127.0.0.1:8000/o/token/?x=1", revocation: "http://[::1]:8000/r",
          userinfo: "http://localhost/u", jwks: "https://keys.example.com/jwks"))
    #expect(settings.idTokenLeewaySeconds == 0)
    #expect(settings.timeoutSeconds == 5)
  }

  @Test func theSettingsObjectIsRequired() {
    let error = ConfigFixtures.error(ConfigFixtures.profile(#""provider": "oauth2""#))
    #expect(error?.jsonPath == "profiles.default.oauth2")
    #expect(error?.message == #"is required for provider "oauth2" (at least issuer and clientId)"#)
  }

  @Test func issuerAndClientIDAreRequired() {
    Self.expect(#""clientId": "app""#, path: "profiles.default.oauth2.issuer", message: "is required")
    Self.expect(
      #""issuer": "https://id.example.com""#, path: "profiles.default.oauth2.clientId", message: "is required")
  }

  @Test func unknownKeysAreRejected() {
    Self.expect(
      Self.minimal + #", "clientSecretFile": "/x""#, path: "profiles.default.oauth2.clientSecretFile",
      message: "unknown key; expected one of issuer, clientId, clientSecret, scopes, allowPasswordGrant, endpoints, "
        + "flows, interactiveTimeoutSeconds, idTokenLeewaySeconds, timeoutSeconds")
    Self.expect(
      Self.minimal + #", "endpoints": {"token": "https://a.example.com/t", "device": "https://a.example.com/d"}"#,
      path: "profiles.default.oauth2.endpoints.device",
      message: "unknown key; expected one of token, revocation, userinfo, jwks, deviceAuthorization, authorization")
  }

  // MARK: - Interactive flows

  @Test func bothInteractiveFlowsAreAllowedByDefaultWithFiveMinutesToAct() throws {
    let settings = try #require(try Self.parsed(Self.minimal))
    #expect(settings.flows == [.device, .authorizationCode])
    #expect(settings.interactiveTimeoutSeconds == 300)
  }

  @Test func flowsTimeoutAndTheirEndpointsAreRead() throws {
    let settings = try #require(
      try Self.parsed(
        #"""
        "issuer": "https://id.example.com", "clientId": "app", "flows": ["authorizationCode"],
        "interactiveTimeoutSeconds": 3600, "scopes": ["profile"],
        "endpoints": {"token": "https://id.example.com/t", "deviceAuthorization": "https://id.example.com/d",
                      "authorization": "https://id.example.com/a?prompt=login"}
        """#))
    #expect(settings.flows == [.authorizationCode])
    #expect(settings.interactiveTimeoutSeconds == 3600)
    #expect(settings.endpoints?.deviceAuthorization == "https://id.example.com/d")
    #expect(settings.endpoints?.authorization == "https://id.example.com/a?prompt=login")
    #expect(try Self.parsed(Self.minimal + #", "flows": []"#)?.flows == [])
  }

  @Test func flowsAreAListOfKnownNamesOnce() {
    let path = "profiles.default.oauth2.flows"
    Self.expect(
      Self.minimal + #", "flows": "device""#, path: path,
      message: #"must be an array of "device", "authorizationCode", not a string"#)
    Self.expect(
      Self.minimal + #", "flows": ["password"]"#, path: path,
      message: #"each flow must be one of "device", "authorizationCode""#)
    // An unknown flow is a config error at start-up, never a flow silently dropped on the way to the provider.
    Self.expect(
      Self.minimal + #", "flows": ["device", "browser"]"#, path: path,
      message: #"each flow must be one of "device", "authorizationCode""#)
    Self.expect(Self.minimal + #", "flows": ["device", "device"]"#, path: path, message: "must not name a flow twice")
    Self.expect(
      Self.minimal + #", "interactiveTimeoutSeconds": 5"#, path: "profiles.default.oauth2.interactiveTimeoutSeconds",
      message: "must be an integer from 10 to 3600")
    Self.expect(
      Self.minimal + #", "endpoints": {"token": "https://a.example.com/t", "authorization": "http://a.example.com/a"}"#,
      path: "profiles.default.oauth2.endpoints.authorization",
      message: "must be an https:// URL (http:// only to a loopback host) without user info or fragment")
  }

  @Test(arguments: [
    "http://id.example.com", "ftp://id.example.com", "id.example.com", "https://", "https://user:pw@id.example.com",
    "https://id.example.com/#frag", "https://id.example.com/?q=1", "http://127.1", "http://10.0.0.1",
    "https://id.example.com/ x", "http://localhost.example.com", "https://id.example.com:99999",
  ])
  func issuersMustBeSecureOrLoopback(issuer: String) {
    Self.expect(
      #""issuer": "\#(issuer)", "clientId": "app""#, path: "profiles.default.oauth2.issuer",
      message: OAuth2ProviderDecoder.urlRule + " or query")
  }

  @Test(arguments: ["https://id.example.com", "http://127.0.0.1:8000/o", "http://[::1]/o", "http://localhost:1/"])
  func secureAndLoopbackIssuersAreAccepted(issuer: String) throws {
    #expect(try Self.parsed(#""issuer": "\#(issuer)", "clientId": "app""#)?.issuer == issuer)
  }

  @Test func endpointsFollowTheSameRule() {
    Self.expect(
      Self.minimal + #", "endpoints": {"token": "http://auth.example.com/token"}"#,
      path: "profiles.default.oauth2.endpoints.token", message: OAuth2ProviderDecoder.urlRule)
    Self.expect(
      Self.minimal + #", "endpoints": {"jwks": "https://a.example.com/jwks"}"#,
      path: "profiles.default.oauth2.endpoints.token", message: "is required")
  }

  @Test func explicitEndpointsNeedTheKeysWhenIDTokensAreExpected() throws {
    Self.expect(
      Self.minimal + #", "endpoints": {"token": "https://a.example.com/token"}"#,
      path: "profiles.default.oauth2.endpoints.jwks",
      message: #"is required when scopes include "openid": ID tokens are verified with the issuer's keys"#)
    // Plain OAuth2 (no openid scope) needs no keys.
    let settings = try Self.parsed(
      Self.minimal + #", "scopes": ["read"], "endpoints": {"token": "https://a.example.com/token"}"#)
    #expect(settings?.endpoints?.jwks == nil)
  }

  @Test(arguments: [
    (#"[]"#, "must not be empty; leave it out for the default"),
    (#""openid""#, "must be an array of strings, not a string"),
    (#"["openid", "openid"]"#, "must not name a scope twice"),
    (#"["open id"]"#, #"each scope must be a non-empty string of printable ASCII without spaces, " or \"#),
    (#"[""]"#, #"each scope must be a non-empty string of printable ASCII without spaces, " or \"#),
    (#"["a\"b"]"#, #"each scope must be a non-empty string of printable ASCII without spaces, " or \"#),
    (#"[7]"#, #"each scope must be a non-empty string of printable ASCII without spaces, " or \"#),
  ])
  func scopesAreScopeTokens(value: String, message: String) {
    Self.expect(Self.minimal + #", "scopes": \#(value)"#, path: "profiles.default.oauth2.scopes", message: message)
  }

  @Test func thePasswordGrantOptInIsABoolean() {
    Self.expect(
      Self.minimal + #", "allowPasswordGrant": "yes""#, path: "profiles.default.oauth2.allowPasswordGrant",
      message: "must be true or false, not a string")
  }

  @Test func numbersAreInTheirRanges() {
    Self.expect(
      Self.minimal + #", "idTokenLeewaySeconds": 301"#, path: "profiles.default.oauth2.idTokenLeewaySeconds",
      message: "must be an integer from 0 to 300")
    Self.expect(
      Self.minimal + #", "timeoutSeconds": 0"#, path: "profiles.default.oauth2.timeoutSeconds",
      message: "must be an integer from 1 to 30")
  }

  /// The secret never appears in an error message, nor in the settings' description.
  @Test func theClientSecretIsNeverShown() throws {
    let secret = "very-secret-välue"
    let error = ConfigFixtures.error(Self.oauth2(Self.minimal + #", "clientSecret": "\#(secret)""#))
    #expect(error?.jsonPath == "profiles.default.oauth2.clientSecret")
    #expect(error?.message.contains("very-secret") == false)
    let settings = try #require(try Self.parsed(Self.minimal + #", "clientSecret": "very-secret-value""#))
    #expect(!settings.description.contains("very-secret"))
    var dumped = ""
    dump(settings, to: &dumped)
    #expect(!dumped.contains("very-secret"))
  }

  @Test func settingsForAnotherProviderAreRejected() {
    let error = ConfigFixtures.error(
      ConfigFixtures.profile(#""provider": "oauth2", "oauth2": {\#(Self.minimal)}, "local": {}"#))
    #expect(error?.jsonPath == "profiles.default.local")
  }
}
