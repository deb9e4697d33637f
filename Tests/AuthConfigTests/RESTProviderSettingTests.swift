import Testing

@testable import AuthConfig

/// The `rest` provider's settings: read strictly, every URL, template and header checked at load.
@Suite struct RESTProviderSettingTests {
  static let minimal = #"""
    "baseURL": "https://api.example.com",
    "login": {"path": "/login", "body": {"username": "{username}", "password": "{password}"}},
    "response": {"accessToken": "token"}
    """#

  /// A `rest` profile whose settings are `minimal` plus `extra` members (or `body` instead when `replacing`).
  static func rest(_ extra: String = "", replacing body: String? = nil) -> String {
    let members = body ?? (extra.isEmpty ? minimal : minimal + ", " + extra)
    return ConfigFixtures.profile(#""provider": "rest", "rest": {\#(members)}"#)
  }

  static func settings(_ text: String) throws -> RESTProviderConfig {
    guard case .rest(let rest)? = try ConfigFixtures.parse(text).profile("default")?.provider else {
      throw ConfigError(kind: .invalidSetting, file: "test", message: "not a rest profile")
    }
    return rest
  }

  static func expect(
    _ text: String, path: String, message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    ConfigFixtures.expectInvalidSetting(text, path: path, message: message, sourceLocation: sourceLocation)
  }

  @Test func theFullShapeParses() throws {
    let rest = try Self.settings(
      Self.rest(
        replacing: #"""
          "baseURL": "HTTP://127.0.0.1:8000/v1/",
          "login": {"path": "/api/token/", "method": "POST", "encoding": "form",
                    "body": {"username": "{username}", "password": "{password}", "grant": "pw-{account}"}},
          "refresh": {"path": "/api/token/refresh/", "body": {"refresh": "{refreshToken}"}},
          "logout": {"path": "/api/token/blacklist/", "body": {"refresh": "{refreshToken}"}, "sendAccessToken": true},
          "user": {"path": "/api/me/", "method": "GET", "userPath": "data.user"},
          "register": {"path": "/api/register/", "body": {"username": "{username}", "password": "{password}",
                                                          "email": "{email}"}},
          "response": {"accessToken": "data.token", "refreshToken": "refresh", "expiresIn": "expires_in",
                       "user": "user", "tokenType": "token_type", "success": "success"},
          "userFields": {"id": "pk", "displayName": "first_name"},
          "headers": {"X-Client": "sidecar"},
          "authScheme": "Token",
          "timeoutSeconds": 5
          """#))
    #expect(rest.baseURL == "http://127.0.0.1:8000/v1")
    #expect(rest.url(rest.login) == "http://127.0.0.1:8000/v1/api/token/")
    #expect(rest.login.encoding == .form)
    #expect(
      rest.login.body.last?.template == RESTProviderConfig.Template([.text("pw-"), .placeholder(.account)]))
    #expect(rest.refresh?.body.first?.template.placeholders == [.refreshToken])
    #expect(rest.logout?.sendAccessToken == true)
    #expect(rest.user?.method == .get)
    #expect(rest.user?.userPath?.components == ["data", "user"])
    #expect(rest.response.accessToken?.components == ["data", "token"])
    #expect(rest.response.success?.description == "success")
    #expect(rest.userFields.id.description == "pk")
    #expect(rest.userFields.username.description == "username")
    #expect(rest.userFields.displayName.description == "first_name")
    #expect(rest.headers == [RESTProviderConfig.Header("X-Client", "sidecar")])
    #expect(rest.authScheme == "Token")
    #expect(rest.timeoutSeconds == 5)
  }

  @Test func defaults() throws {
    let rest = try Self.settings(Self.rest())
    #expect(rest.login.method == .post)
    #expect(rest.login.encoding == .json)
    #expect(rest.refresh == nil && rest.logout == nil && rest.user == nil && rest.register == nil)
    #expect(rest.authScheme == "Bearer")
    #expect(rest.timeoutSeconds == 30)
    #expect(rest.userFields == .defaults)
  }

  @Test func theSettingsObjectIsRequired() {
    Self.expect(ConfigFixtures.profile(#""provider": "rest""#), path: "profiles.default.rest")
  }

  @Test(arguments: [
    "https://api.example.com", "https://API.example.com:8443/prefix", "http://127.0.0.1:8000", "http://localhost",
    "http://127.1.2.3", "http://[::1]:9000/",
  ])
  func acceptedBaseURLs(url: String) throws {
    _ = try Self.settings(Self.rest(replacing: Self.minimal.replacing("https://api.example.com", with: url)))
  }

  @Test(arguments: [
    "http://example.com", "http://127.0.0.1.example.com", "http://0x7f.0.0.1", "http://127.1", "ftp://example.com",
    "example.com", "https://", "https://user:pw@example.com", "https://example.com/?q=1", "https://example.com/#f",
    "https://example.com:0", "https://example.com:99999", "https://exa mple.com", "https://[::1",
  ])
  func refusedBaseURLs(url: String) {
    Self.expect(
      Self.rest(replacing: Self.minimal.replacing("https://api.example.com", with: url)),
      path: "profiles.default.rest.baseURL")
  }

  @Test func loginAndResponseAreRequired() {
    Self.expect(
      Self.rest(replacing: #""baseURL": "https://a.example", "response": {"accessToken": "t"}"#),
      path: "profiles.default.rest.login")
    Self.expect(
      Self.rest(replacing: #""baseURL": "https://a.example", "login": {"path": "/l", "body": {"p": "{password}"}}"#),
      path: "profiles.default.rest.response")
    Self.expect(
      Self.rest(
        replacing: #""baseURL": "https://a.example", "login": {"path": "/l", "body": {"p": "{password}"}},"#
          + #" "response": {"refreshToken": "r"}"#),
      path: "profiles.default.rest.response.accessToken")
  }

  @Test func templates() {
    Self.expect(
      Self.rest(replacing: Self.minimal.replacing("{password}", with: "{pasword}")),
      path: "profiles.default.rest.login.body.password",
      message:
        "uses an unknown placeholder; this endpoint has {username}, {password}, {account}, {email}, "
        + "{accountNormalized}, {phoneE164}, {phoneNational}, {emailNormalized}, {accountKind}")
    // The refresh token has no business in a login body, nor a password in a refresh body.
    Self.expect(
      Self.rest(replacing: Self.minimal.replacing("{username}", with: "{refreshToken}")),
      path: "profiles.default.rest.login.body.username")
    Self.expect(
      Self.rest(#""refresh": {"path": "/r", "body": {"r": "{refreshToken}", "p": "{password}"}}"#),
      path: "profiles.default.rest.refresh.body.p")
    Self.expect(
      Self.rest(replacing: Self.minimal.replacing("{password}", with: "literal")),
      path: "profiles.default.rest.login.body", message: "must use {password} in one of its values")
    Self.expect(
      Self.rest(#""refresh": {"path": "/r", "body": {"r": "x"}}"#), path: "profiles.default.rest.refresh.body")
    Self.expect(
      Self.rest(replacing: Self.minimal.replacing(#""{username}""#, with: "7")),
      path: "profiles.default.rest.login.body.username", message: "must be a string, not a number")
  }

  @Test func bracesThatAreNotPlaceholdersStayLiteral() throws {
    let rest = try Self.settings(Self.rest(replacing: Self.minimal.replacing(#""{username}""#, with: #""{ {1} {""#)))
    #expect(rest.login.body.first?.template == RESTProviderConfig.Template([.text("{ {1} {")]))
  }

  @Test func endpoints() {
    Self.expect(Self.rest(#""user": {"method": "GET"}"#), path: "profiles.default.rest.user.path")
    Self.expect(Self.rest(#""user": {"path": "me"}"#), path: "profiles.default.rest.user.path")
    Self.expect(Self.rest(#""user": {"path": "//evil.example/me"}"#), path: "profiles.default.rest.user.path")
    Self.expect(Self.rest(#""user": {"path": "/me", "method": "get"}"#), path: "profiles.default.rest.user.method")
    Self.expect(Self.rest(#""user": {"path": "/me", "body": {}}"#), path: "profiles.default.rest.user.body")
    Self.expect(Self.rest(#""user": {"path": "/me", "userPath": "a..b"}"#), path: "profiles.default.rest.user.userPath")
    Self.expect(
      Self.rest(#""refresh": {"path": "/r", "method": "GET", "body": {"r": "{refreshToken}"}}"#),
      path: "profiles.default.rest.refresh.body", message: "cannot be sent with GET")
    Self.expect(
      Self.rest(#""refresh": {"path": "/r", "encoding": "xml", "body": {"r": "{refreshToken}"}}"#),
      path: "profiles.default.rest.refresh.encoding")
    Self.expect(Self.rest(#""logout": {"path": "/logout"}"#), path: "profiles.default.rest.logout")
    Self.expect(
      Self.rest(#""logout": {"path": "/logout", "sendAccessToken": "yes"}"#),
      path: "profiles.default.rest.logout.sendAccessToken", message: "must be true or false, not a string")
    Self.expect(
      Self.rest(#""login": {"path": "/l"}"#), path: "profiles.default.rest.login",
      message: "appears more than once")
    Self.expect(
      Self.rest(#""register": {"path": "/r", "body": {"p": "{password}"}}"#),
      path: "profiles.default.rest.register.body", message: "must use {username} in one of its values")
  }

  @Test func answersAndUnknownKeys() {
    Self.expect(
      Self.rest(replacing: Self.minimal.replacing(#""token""#, with: #"".token""#)),
      path: "profiles.default.rest.response.accessToken")
    Self.expect(Self.rest(#""userFields": {"name": "n"}"#), path: "profiles.default.rest.userFields.name")
    Self.expect(Self.rest(#""loginURL": "https://x.example""#), path: "profiles.default.rest.loginURL")
    Self.expect(
      Self.rest(#""user": {"path": "/me", "sendAccessToken": true}"#),
      path: "profiles.default.rest.user.sendAccessToken")
  }

  @Test func headersAndLimits() {
    Self.expect(Self.rest(#""headers": {"Authorization": "k"}"#), path: "profiles.default.rest.headers.Authorization")
    Self.expect(Self.rest(#""headers": {"Bad Name": "k"}"#), path: "profiles.default.rest.headers[\"Bad Name\"]")
    Self.expect(Self.rest(#""headers": {"X-A": "a\r\nX-B: b"}"#), path: "profiles.default.rest.headers.X-A")
    Self.expect(Self.rest(#""timeoutSeconds": 0"#), path: "profiles.default.rest.timeoutSeconds")
    Self.expect(Self.rest(#""timeoutSeconds": 31"#), path: "profiles.default.rest.timeoutSeconds")
    Self.expect(Self.rest(#""authScheme": "Bearer token""#), path: "profiles.default.rest.authScheme")
  }

  /// Header values are API keys, body templates may hold a client secret: no error repeats them.
  @Test(arguments: [
    #""headers": {"X-Api-Key": "s3cr3t-VALUE\n"}"#, #""headers": {"Authorization": "s3cr3t-VALUE"}"#,
    #""logout": {"path": "/l", "body": {"k": "s3cr3t-VALUE{password}"}}"#,
    #""timeoutSeconds": "s3cr3t-VALUE""#,
  ])
  func noValueIsEchoed(extra: String) {
    let error = ConfigFixtures.error(Self.rest(extra))
    #expect(error != nil)
    #expect(error?.description.contains("s3cr3t") == false)
  }

  @Test func settingsOfAnotherProviderAreRejected() {
    Self.expect(
      ConfigFixtures.profile(#""provider": "rest", "local": {}, "rest": {\#(Self.minimal)}"#),
      path: "profiles.default.local")
  }
}
