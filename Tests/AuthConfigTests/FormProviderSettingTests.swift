import AuthHTML
import Testing

@testable import AuthConfig

/// The `form` provider's settings: read strictly, every URL on the login page's origin, selectors checked at load.
@Suite struct FormProviderSettingTests {
  static let minimal = #"""
    "loginURL": "https://example.com/accounts/login/",
    "user": {"url": "https://example.com/accounts/profile.json"}
    """#

  static func form(_ extra: String = "", replacing body: String? = nil) -> String {
    let members = body ?? (extra.isEmpty ? minimal : minimal + ", " + extra)
    return ConfigFixtures.profile(#""provider": "form", "form": {\#(members)}"#)
  }

  static func settings(_ text: String) throws -> FormProviderConfig {
    guard case .form(let form)? = try ConfigFixtures.parse(text).profile("default")?.provider else {
      throw ConfigError(kind: .invalidSetting, file: "test", message: "not a form profile")
    }
    return form
  }

  static func expect(
    _ text: String, path: String, message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    ConfigFixtures.expectInvalidSetting(text, path: path, message: message, sourceLocation: sourceLocation)
  }

  @Test func theMinimalShapeTakesTheDefaults() throws {
    let form = try Self.settings(Self.form())
    #expect(form.loginURL == "https://example.com/accounts/login/")
    #expect(form.form == .withPassword)
    #expect(form.accountField == nil && form.passwordField == nil)
    #expect(form.success == .init())
    #expect(form.user.fields == .json(.defaults))
    #expect(form.logout == nil)
    #expect(form.sessionLifetimeSeconds == SessionLifetime.defaultSeconds)
    #expect(form.timeoutSeconds == 30)
  }

  @Test func theFullShapeParses() throws {
    let form = try Self.settings(
      Self.form(
        replacing: #"""
          "loginURL": "http://127.0.0.1:8000/accounts/login/?next=/x",
          "form": {"id": "login-form"},
          "fields": {"account": "email", "password": "pw"},
          "success": {"sessionCookie": "sessionid", "redirectPath": "/accounts/profile/"},
          "user": {"url": "http://127.0.0.1:8000/accounts/profile/", "format": "html",
                   "fields": {"id": "#profile .id", "username": "dd.username", "displayName": "#profile .first_name"}},
          "logout": {"url": "http://127.0.0.1:8000/accounts/logout/", "method": "POST",
                     "csrf": {"formURL": "http://127.0.0.1:8000/accounts/profile/", "formId": "logout-form"}},
          "sessionLifetimeSeconds": 3600,
          "timeoutSeconds": 5
          """#))
    #expect(form.form == .id("login-form"))
    #expect(form.accountField == "email" && form.passwordField == "pw")
    #expect(form.success == .init(sessionCookie: "sessionid", redirectPath: "/accounts/profile/"))
    guard case .html(let fields) = form.user.fields else {
      Issue.record("not html")
      return
    }
    #expect(fields.username == HTMLSelector("dd.username"))
    #expect(fields.email == nil)
    #expect(form.logout?.csrf == .form(url: "http://127.0.0.1:8000/accounts/profile/", formID: "logout-form"))
    #expect(form.sessionLifetimeSeconds == 3600 && form.timeoutSeconds == 5)
  }

  @Test func aCookieHeaderCSRFAndJSONFields() throws {
    let form = try Self.settings(
      Self.form(
        replacing: #"""
          "loginURL": "https://example.com:443/login",
          "form": {"index": 1},
          "user": {"url": "https://EXAMPLE.com/me", "format": "json", "fields": {"displayName": "profile.name"}},
          "logout": {"url": "https://example.com/logout", "method": "GET",
                     "csrf": {"cookie": "csrftoken", "header": "X-CSRFToken"}}
          """#))
    #expect(form.form == .index(1))
    #expect(form.user.fields == .json(.init(displayName: .init(["profile", "name"]))))
    #expect(
      form.logout
        == .init(
          url: "https://example.com/logout", method: .get,
          csrf: .cookieHeader(cookie: "csrftoken", header: "X-CSRFToken")))
  }

  @Test func theSettingsObjectAndItsRequiredPartsAreRequired() {
    Self.expect(ConfigFixtures.profile(#""provider": "form""#), path: "profiles.default.form")
    Self.expect(
      Self.form(replacing: #""user": {"url": "https://a.example/me"}"#), path: "profiles.default.form.loginURL")
    Self.expect(Self.form(replacing: #""loginURL": "https://a.example/login""#), path: "profiles.default.form.user")
    Self.expect(
      Self.form(replacing: #""loginURL": "https://a.example/login", "user": {"format": "json"}"#),
      path: "profiles.default.form.user.url")
  }

  @Test(arguments: [
    ("\"loginURLs\": 1", "profiles.default.form.loginURLs"),
    (#""form": {"name": "x"}"#, "profiles.default.form.form.name"),
    (#""success": {"cookie": "x"}"#, "profiles.default.form.success.cookie"),
    (#""fields": {"username": "x"}"#, "profiles.default.form.fields.username"),
  ])
  func unknownKeysAreRejected(extra: String, path: String) {
    Self.expect(Self.form(extra), path: path)
  }

  @Test(arguments: [
    "http://example.com/login", "ftp://example.com/login", "https://user:pw@example.com/login",
    "https://example.com/login#top", "/accounts/login/", "https://exa mple.com/",
  ])
  func loginURLMustBeHTTPSOrLoopbackHTTP(url: String) {
    Self.expect(
      Self.form(replacing: #""loginURL": "\#(url)", "user": {"url": "https://example.com/me"}"#),
      path: "profiles.default.form.loginURL", message: FormProviderDecoder.urlRule)
  }

  @Test(arguments: [
    ("https://other.example/me", "user.url"), ("http://example.com/me", "user.url"),
    ("https://example.com:8443/me", "user.url"), ("https://sub.example.com/me", "user.url"),
  ])
  func everyURLStaysOnTheLoginOrigin(url: String, key: String) {
    let error = ConfigFixtures.error(
      Self.form(replacing: #""loginURL": "https://example.com/login", "user": {"url": "\#(url)"}"#))
    #expect(error?.jsonPath == "profiles.default.form.\(key)")
  }

  @Test func logoutAndCSRFURLsStayOnTheLoginOriginToo() {
    Self.expect(
      Self.form(#""logout": {"url": "https://evil.example/logout"}"#), path: "profiles.default.form.logout.url")
    Self.expect(
      Self.form(#""logout": {"url": "https://example.com/logout", "csrf": {"formURL": "https://evil.example/p"}}"#),
      path: "profiles.default.form.logout.csrf.formURL")
  }

  @Test(arguments: [
    #"{"id": "a", "index": 0}"#, #"{}"#,
  ])
  func formNeedsExactlyOneOfIdOrIndex(value: String) {
    Self.expect(Self.form(#""form": \#(value)"#), path: "profiles.default.form.form")
  }

  @Test func formIndexIsInRange() {
    Self.expect(Self.form(#""form": {"index": -1}"#), path: "profiles.default.form.form.index")
  }

  @Test(arguments: [
    (#""success": {"redirectPath": "accounts/profile"}"#, "profiles.default.form.success.redirectPath"),
    (#""success": {"redirectPath": "/p?x=1"}"#, "profiles.default.form.success.redirectPath"),
    (#""success": {"sessionCookie": "a b"}"#, "profiles.default.form.success.sessionCookie"),
    (#""success": {"sessionCookie": "a;b"}"#, "profiles.default.form.success.sessionCookie"),
    (#""fields": {"account": ""}"#, "profiles.default.form.fields.account"),
    (#""sessionLifetimeSeconds": 10"#, "profiles.default.form.sessionLifetimeSeconds"),
    (#""timeoutSeconds": 31"#, "profiles.default.form.timeoutSeconds"),
  ])
  func badValuesNameTheirKey(extra: String, path: String) {
    Self.expect(Self.form(extra), path: path)
  }

  @Test(arguments: [
    (#"{"url": "https://example.com/me", "format": "xml"}"#, "profiles.default.form.user.format"),
    (#"{"url": "https://example.com/me", "format": "html"}"#, "profiles.default.form.user.fields"),
    (
      #"{"url": "https://example.com/me", "format": "html", "fields": {"email": ".email"}}"#,
      "profiles.default.form.user.fields"
    ),
    (
      #"{"url": "https://example.com/me", "format": "html", "fields": {"id": "div > p"}}"#,
      "profiles.default.form.user.fields.id"
    ),
    (#"{"url": "https://example.com/me", "fields": {"id": "a..b"}}"#, "profiles.default.form.user.fields.id"),
  ])
  func userPagesAreCheckedAtLoad(user: String, path: String) {
    Self.expect(Self.form(replacing: #""loginURL": "https://example.com/login", "user": \#(user)"#), path: path)
  }

  @Test(arguments: [
    #"{"url": "https://example.com/logout", "method": "DELETE"}"#,
    #"{"url": "https://example.com/logout", "csrf": {"cookie": "csrftoken"}}"#,
    #"{"url": "https://example.com/logout", "csrf": {"cookie": "c", "header": "Cookie"}}"#,
    #"{"url": "https://example.com/logout", "csrf": {"formURL": "https://example.com/p", "cookie": "c", "header": "h"}}"#,
  ])
  func logoutIsCheckedAtLoad(logout: String) {
    let error = ConfigFixtures.error(Self.form(#""logout": \#(logout)"#))
    #expect(error?.jsonPath.hasPrefix("profiles.default.form.logout") == true)
  }

  @Test func settingsForAnotherProviderAreRejected() {
    Self.expect(
      Self.form().replacingOccurrences(of: #""provider": "form","#, with: #""provider": "form", "rest": {},"#),
      path: "profiles.default.rest")
  }
}
