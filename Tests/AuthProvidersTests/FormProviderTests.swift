import AuthConfig
import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthStorage
import AuthSupport
import Foundation
import Synchronization
import Testing

@testable import AuthProviders

/// A site in memory: records every request and answers through the test's handler.
final class FormStubSite: HTTPClient {
  typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
  private let state: Mutex<(requests: [HTTPRequest], handler: Handler)>

  init(_ handler: @escaping Handler) { state = Mutex(([], handler)) }

  var requests: [HTTPRequest] { state.withLock { $0.requests } }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let handler = state.withLock { state in
      state.requests.append(request)
      return state.handler
    }
    return handler(request)
  }

  static func html(_ body: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + headers,
      body: Array(body.utf8), finalURL: "")
  }

  static func redirect(_ location: String, headers: [HTTPHeader] = []) -> HTTPResponse {
    HTTPResponse(status: 302, headers: [HTTPHeader("Location", location)] + headers, body: [], finalURL: "")
  }
}

@Suite struct FormProviderTests {
  static let site = "https://site.example"
  static let loginPage = """
    <form id="login" method="post" action="/login"><input type="hidden" name="csrf" value="t0k">
    <input type="hidden" name="next" value="/me"><input name="user"><input type="password" name="pass"></form>
    """

  /// A Django-like site: the login page sets `csrf`, a right password gets a session cookie and a redirect.
  static func djangoLike(_ request: HTTPRequest) -> HTTPResponse {
    let cookie = request.headers.first { $0.name == "Cookie" }?.value ?? ""
    switch (request.method, request.url) {
    case (.get, site + "/login"):
      return FormStubSite.html(loginPage, headers: [HTTPHeader("Set-Cookie", "csrf=c00kie; Path=/")])
    case (.post, site + "/login"):
      let body = String(decoding: request.body ?? [], as: UTF8.self)
      guard body.contains("pass=right+one") else { return FormStubSite.html(loginPage) }
      return FormStubSite.redirect("/me", headers: [HTTPHeader("Set-Cookie", "sid=s3ss; Path=/; Max-Age=3600")])
    case (.get, site + "/me"):
      guard cookie.contains("sid=") else { return FormStubSite.redirect("/login?next=/me") }
      return HTTPResponse(
        status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
        body: Array(#"{"id": 7, "username": "alice", "email": "a@site.example"}"#.utf8), finalURL: "")
    default:
      return FormStubSite.html("no", status: 404)
    }
  }

  final class Fixture: Sendable {
    let clock = ManualClock(1_800_000_000)
    let site: FormStubSite
    let provider: FormProvider

    init(
      success: FormProviderConfig.SuccessRules = .init(sessionCookie: "sid"), logout: FormProviderConfig.Logout? = nil,
      _ handler: @escaping FormStubSite.Handler = FormProviderTests.djangoLike
    ) throws {
      site = FormStubSite(handler)
      let config = FormProviderConfig(
        loginURL: FormProviderTests.site + "/login", success: success,
        user: .init(url: FormProviderTests.site + "/me", fields: .json(.defaults)), logout: logout)
      provider = FormProvider(config: config, client: site, clock: clock, log: Logger(level: .error))
    }

    func login(password: String = "right one") async throws -> IssuedSession {
      try await provider.login(LoginAccount(kind: .username, text: "alice"), password: password, profile: "default")
    }

    /// The session the session service keeps after a login that issued `issued`, as it hands it back.
    func stored(_ issued: IssuedSession) throws -> IssuedSession { issued }
  }

  @Test func loginPostsTheHiddenInputsWithTheCookieLikeABrowser() async throws {
    let fixture = try Fixture()
    let issued = try await fixture.login()
    #expect(issued.user.id == "7" && issued.user.username == "alice")
    #expect(issued.tokenType == "cookie")
    #expect(issued.accessToken.count == 0)
    #expect(issued.expiresAt == fixture.clock.now() + 3600)  // the session cookie's Max-Age
    let jar = try CookieJar(serialized: try #require(issued.providerState), clock: fixture.clock)
    #expect(jar.named("sid") == "s3ss")

    let post = try #require(fixture.site.requests.first { $0.method == .post })
    #expect(String(decoding: post.body ?? [], as: UTF8.self) == "csrf=t0k&next=%2Fme&user=alice&pass=right+one")
    let headers = Dictionary(post.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    #expect(headers["Cookie"] == "csrf=c00kie")
    #expect(headers["Referer"] == Self.site + "/login")
    #expect(headers["Origin"] == Self.site)
    #expect(headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(post.redirects == .refuse)
  }

  /// A page past the in-line limit is parsed on a thread of its own; the outcome is the same.
  @Test func aLargeLoginPageIsParsedOffThePool() async throws {
    let padding = String(repeating: "<p class=filler>lorem ipsum dolor sit amet</p>", count: 4_000)
    let fixture = try Fixture { request in
      guard request.method == .get, request.url == Self.site + "/login" else { return Self.djangoLike(request) }
      return FormStubSite.html(padding + Self.loginPage, headers: [HTTPHeader("Set-Cookie", "csrf=c00kie; Path=/")])
    }
    #expect(padding.utf8.count > FormUserPage.inlineParseLimit)
    #expect(try await fixture.login().user.username == "alice")
  }

  @Test func theFormAgainIsInvalidCredentials() async throws {
    let fixture = try Fixture()
    await #expect { try await fixture.login(password: "wrong") } throws: {
      ($0 as? ProviderError)?.code == .invalidCredentials
    }
  }

  @Test func aRedirectPathRuleMustMatch() async throws {
    let fixture = try Fixture(success: .init(sessionCookie: "sid", redirectPath: "/dashboard"))
    await #expect { try await fixture.login() } throws: { ($0 as? ProviderError)?.code == .invalidCredentials }
  }

  @Test func withoutRulesTheFormMustBeGone() async throws {
    let fixture = try Fixture(success: .init())
    #expect(try await fixture.login().user.username == "alice")
  }

  @Test(arguments: [
    #"<form method="get" action="/login"><input name=u><input type=password name=p></form>"#,
    #"<form method="post" action="https://evil.example/login"><input name=u><input type=password name=p></form>"#,
    #"<form method="post" action="//evil.example/login"><input name=u><input type=password name=p></form>"#,
    #"<form method="post" action="http://site.example/login"><input name=u><input type=password name=p></form>"#,
    "<p>no form here</p>",
  ])
  func aFormThatWouldLeakThePasswordIsRefusedBeforeItIsSent(page: String) async throws {
    let fixture = try Fixture { request in
      request.method == .get ? FormStubSite.html(page) : FormStubSite.html("must not be reached", status: 500)
    }
    await #expect { try await fixture.login() } throws: { ($0 as? ProviderError)?.code == .badResponse }
    #expect(fixture.site.requests.map(\.method) == [.get])
  }

  @Test func aRedirectToAnotherOriginIsNotFollowed() async throws {
    let fixture = try Fixture { request in
      request.method == .get ? FormStubSite.html(Self.loginPage) : FormStubSite.redirect("https://evil.example/me")
    }
    await #expect { try await fixture.login() } throws: { ($0 as? ProviderError)?.code == .badResponse }
    #expect(!fixture.site.requests.contains { $0.url.contains("evil") })
  }

  @Test func a403ToThePostIsBadResponseWithItsStatus() async throws {
    let fixture = try Fixture { request in
      request.method == .get
        ? FormStubSite.html(Self.loginPage) : FormStubSite.html("CSRF verification failed", status: 403)
    }
    await #expect { try await fixture.login() } throws: { error in
      let error = error as? ProviderError
      return error?.code == .badResponse && error?.status == 403
    }
  }

  @Test func aRefreshSentToTheLoginPageEndsTheSession() async throws {
    let fixture = try Fixture()
    let record = try fixture.stored(try await fixture.login())
    // The site forgets the session: its user page now sends the browser to log in.
    let forgetful = try Fixture { request in
      request.url.hasSuffix("/me") ? FormStubSite.redirect("/login?next=/me") : Self.djangoLike(request)
    }
    await #expect { try await forgetful.provider.refresh(record, profile: "default") } throws: {
      ($0 as? ProviderError)?.code == .sessionRejected
    }
    // Only the user page was asked; the login page was not fetched.
    #expect(forgetful.site.requests.map(\.url) == [Self.site + "/me"])
  }

  @Test func aRefreshExtendsTheSession() async throws {
    let fixture = try Fixture()
    let record = try fixture.stored(try await fixture.login())
    fixture.clock.advance(by: 600)
    guard case .issued(let refreshed) = try await fixture.provider.refresh(record, profile: "default") else {
      Issue.record("the form provider's refresh is new tokens for the session service to store")
      return
    }
    #expect(refreshed.user.email == "a@site.example")
    #expect(refreshed.expiresAt == record.expiresAt)  // still the cookie's expiry, which did not move
  }

  /// The session service stores the jar `fetchUser` hands back.
  @Test func aRotatedCookieIsKeptAfterFetchingTheUser() async throws {
    let fixture = try Fixture()
    let record = try fixture.stored(try await fixture.login())
    let rotating = try Fixture { request in
      var response = Self.djangoLike(request)
      if request.url.hasSuffix("/me") {
        response = HTTPResponse(
          status: response.status, headers: response.headers + [HTTPHeader("Set-Cookie", "sid=n3w; Path=/")],
          body: response.body, finalURL: "")
      }
      return response
    }
    let moved = FormProvider(
      config: FormProviderConfig(
        loginURL: Self.site + "/login", success: .init(sessionCookie: "sid"),
        user: .init(url: Self.site + "/me", fields: .json(.defaults))),
      client: rotating.site, clock: fixture.clock, log: Logger(level: .error))
    let fetched = try await moved.fetchUser(record)
    let jar = try CookieJar(serialized: try #require(fetched.providerState), clock: fixture.clock)
    #expect(jar.named("sid") == "n3w")
  }

  @Test func anUnreadableJarEndsTheSession() async throws {
    let fixture = try Fixture()
    var record = try fixture.stored(try await fixture.login())
    record.providerState = Array("not a jar".utf8)
    await #expect { try await fixture.provider.fetchUser(record) } throws: {
      ($0 as? ProviderError)?.code == .sessionRejected
    }
    #expect(fixture.site.requests.count == 3)  // the login's (page, post, user page it lands on), none more
  }

  @Test func logoutEchoesTheCSRFCookieInTheConfiguredHeader() async throws {
    let fixture = try Fixture(
      logout: .init(url: Self.site + "/logout", csrf: .cookieHeader(cookie: "csrf", header: "X-CSRFToken"))
    ) { request in
      request.url.hasSuffix("/logout") ? FormStubSite.redirect("/login") : Self.djangoLike(request)
    }
    let record = try fixture.stored(try await fixture.login())
    try await fixture.provider.revoke(record)
    let logout = try #require(fixture.site.requests.last)
    #expect(logout.method == .post && logout.url == Self.site + "/logout")
    #expect(logout.headers.contains(HTTPHeader("X-CSRFToken", "c00kie")))
    #expect(logout.headers.contains { $0.name == "Cookie" && $0.value.contains("sid=s3ss") })
  }

  @Test func withoutALogoutNothingIsRevoked() async throws {
    let fixture = try Fixture()
    let record = try fixture.stored(try await fixture.login())
    await #expect { try await fixture.provider.revoke(record) } throws: { ($0 as? ProviderError)?.code == .unsupported }
    // So a replaced or logged-out session is only forgotten: no revocation is started for it.
    guard case .storeOnly = fixture.provider.retirement(of: record) else {
      Issue.record("a site without a logout is asked to revoke")
      return
    }
    #expect(!fixture.provider.endsSessionsBeyondTheStore)
    let withLogout = try Fixture(logout: .init(url: Self.site + "/logout", csrf: .none))
    guard case .atServer = withLogout.provider.retirement(of: record) else {
      Issue.record("a site with a logout is not asked to revoke")
      return
    }
    #expect(withLogout.provider.endsSessionsBeyondTheStore)
  }
}
