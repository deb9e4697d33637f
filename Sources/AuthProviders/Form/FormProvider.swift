import AuthConfig
import AuthCrypto
import AuthHTML
import AuthHTTP
import AuthJSON
import AuthSupport

/// The `form` provider: a site's own HTML login form, used as a browser would — fetch the page, post the form
/// with every hidden input (the CSRF token) and the credentials, keep the cookies.
///
/// **Session shape.** There is no bearer token: the credential is the site's session cookie, and cookies never
/// leave the sidecar. The session is stored with `tokenType` `"cookie"` and an empty access token, and hosts see
/// `{tokenType: "cookie", expiresAt}` without `accessToken`. The cookie jar is the session's `providerState`,
/// sealed in the store like any secret. `expiresAt` is the session cookie's expiry, or `sessionLifetimeSeconds`
/// from now for a cookie without one; a refresh re-checks the session with the server by reading the user page.
///
/// **Outcomes** are decided from structure — the session cookie, the redirect target, the login form gone —
/// never from the page's text. A form shown again is `invalidCredentials`; a 403 to the post is the site
/// refusing our request (its CSRF check), `badResponse` with `status: 403`; a form action or a redirect on
/// another origin is refused before anything is sent there (`badResponse`). 429, 5xx and transport failures go
/// through `RemoteFailures`, like every remote provider. Log lines carry methods, paths and statuses only: never
/// a cookie, a CSRF token or a password.
package final class FormProvider: IdentityProvider {
  package static let tokenType = "cookie"

  package let kind = ProviderKind.form

  private let config: FormProviderConfig
  private let client: any HTTPClient
  private let clock: any Clock
  private let log: Logger
  private let origin: RequestTarget.Origin
  private let loginPath: String

  /// - Important: `config.loginURL` must pass the transport rules, as the config loader checks.
  package init(config: FormProviderConfig, client: any HTTPClient, clock: any Clock, log: Logger) {
    self.config = config
    self.client = client
    self.clock = clock
    self.log = log
    let login = try? RequestTarget(config.loginURL)
    origin = login?.origin ?? RequestTarget.Origin(scheme: "https", host: "", port: 443)
    loginPath = login?.path ?? "/"
  }

  private func browser(_ jar: CookieJar) -> FormBrowser {
    FormBrowser(jar: jar, client: client, origin: origin, timeoutSeconds: config.timeoutSeconds, log: log)
  }

  // MARK: - Login

  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    var browser = browser(CookieJar(clock: clock))
    let page = try await browser.send(.get, config.loginURL)
    try StatusRule(reportsStatus: true).check(page.response, "the login page")
    let document = try await FormUserPage.document(page.response)
    let login = try FormLoginPage(document, pageURL: page.url, config: config, origin: origin)
    // Not idempotent in general, but a form post that never reached the server is retried by the client.
    let posted = try await browser.send(
      .post, login.action, body: login.body(account: account.text, password: password), referer: page.url)
    let response = posted.response
    try Self.checkTransient(response)
    if response.status == 403 {
      throw ProviderError(.badResponse, "the site refused the login post with 403 (its CSRF check)", status: 403)
    }
    guard try await succeeded(posted, browser.jar) else {
      if (200..<300).contains(response.status) || [400, 401, 422].contains(response.status) {
        throw ProviderError(.invalidCredentials, "form login refused (\(response.status), no success sign)")
      }
      throw ProviderError(.badResponse, "form login answered \(response.status)", status: response.status)
    }
    let user: UserInfo
    do {
      if posted.redirected, posted.url == config.user.url, (200..<300).contains(response.status) {
        // The login landed on the user page (Django's `next`): read it there instead of asking again.
        user = try await FormUserPage.user(response, config.user.fields, fallbackUsername: account.text)
      } else {
        user = try await fetchUser(with: &browser, fallbackUsername: account.text)
      }
    } catch let error as ProviderError where error.code == .sessionRejected {
      // The site just said yes, then does not know us: the success rules are too weak for this site.
      throw ProviderError(.badResponse, "the user page refused the session the login just made")
    }
    log.debug("form: logged in; \(browser.jar)")
    return issued(user, jar: browser.jar)
  }

  /// Every configured rule holds; with none configured, the page the login ended on has no login form.
  private func succeeded(_ exchange: FormBrowser.Exchange, _ jar: CookieJar) async throws -> Bool {
    let rules = config.success
    if rules.sessionCookie == nil, rules.redirectPath == nil {
      guard (200..<400).contains(exchange.response.status) else { return false }
      let document = try await FormUserPage.document(exchange.response)
      return !document.forms.contains { $0.hasPasswordInput }
    }
    if let cookie = rules.sessionCookie, jar.named(cookie) == nil { return false }
    if let path = rules.redirectPath {
      guard exchange.redirected, let target = try? RequestTarget(exchange.url), target.path == path else {
        return false
      }
    }
    return true
  }

  private func issued(_ user: UserInfo, jar: CookieJar) -> IssuedSession {
    IssuedSession(
      user: user, accessToken: SecretBytes([]), refreshToken: nil, tokenType: Self.tokenType,
      expiresAt: expiry(jar), providerState: jar.serialized)
  }

  /// The session cookie's expiry, else the configured lifetime from now.
  private func expiry(_ jar: CookieJar) -> Int64 {
    if let cookie = config.success.sessionCookie, let expires = jar.expiry(ofCookieNamed: cookie) { return expires }
    return clock.now() + Int64(config.sessionLifetimeSeconds)
  }

  // MARK: - Refresh, user

  /// Re-checks the session with the server by reading the user page with the stored cookies. A site that sends
  /// the browser to its login page, or answers 401/403, has ended the session (`sessionRejected`); otherwise the
  /// session is extended and rotated cookies are kept.
  package func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    var browser = browser(try jar(current))
    let user = try await fetchUser(with: &browser, fallbackUsername: current.user.knownUsername)
    return .issued(issued(user, jar: browser.jar))
  }

  /// The user page's user, and the cookie jar after reading it: when the site rotated a cookie, `SessionService`
  /// keeps the new jar, or the next request would present a dead cookie.
  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    var browser = browser(try jar(current))
    let user = try await fetchUser(with: &browser, fallbackUsername: current.user.knownUsername)
    return FetchedUser(user, providerState: browser.jar.serialized)
  }

  private func fetchUser(with browser: inout FormBrowser, fallbackUsername: String?) async throws -> UserInfo {
    let exchange: FormBrowser.Exchange
    do {
      exchange = try await browser.send(
        .get, config.user.url, accept: Self.accept(config.user.fields), stopAt: loginPath)
    } catch let error as ProviderError where error.code == .badResponse && error.status != nil {
      // A logged-out browser sent to a sign-in page elsewhere (SSO): the session is gone, and we do not follow.
      throw ProviderError(.sessionRejected, "the user page redirects to another origin")
    }
    // A 401 or 403, or a redirect to the login page (not followed): the site no longer knows the session.
    let userPage = StatusRule(refused: Set(300..<400).union([401, 403]), refusal: .sessionRejected, reportsStatus: true)
    try userPage.check(exchange.response, "the user page")
    return try await FormUserPage.user(exchange.response, config.user.fields, fallbackUsername: fallbackUsername)
  }

  private static func accept(_ fields: FormProviderConfig.UserFields) -> String {
    if case .json = fields { return "application/json" }
    return FormBrowser.acceptHTML
  }

  // MARK: - Logout

  package func retirement(of current: IssuedSession) -> Retirement {
    endsSessionsBeyondTheStore ? .atServer : .storeOnly
  }

  /// Without a logout endpoint there is nothing to end a session with but the store.
  package var endsSessionsBeyondTheStore: Bool { config.logout != nil }

  /// Logs out at the site with its CSRF proof; a redirect (to the login page, usually) counts as done.
  package func revoke(_ current: IssuedSession) async throws {
    guard let logout = config.logout else { throw ProviderError(.unsupported, "no logout configured") }
    var browser = browser(try jar(current))
    var headers: [HTTPHeader] = []
    var entries: [(name: String, value: String)] = []
    var referer = config.loginURL
    switch logout.csrf {
    case nil:
      break
    case .cookieHeader(let cookie, let header)?:
      if let value = browser.jar.named(cookie) { headers.append(HTTPHeader(header, value)) }
    case .form(let url, let formID)?:
      let page = try await browser.send(.get, url, stopAt: loginPath)
      try Self.checkTransient(page.response)
      let forms = try await FormUserPage.document(page.response).forms
      let form = formID.map { id in forms.first { $0.id == id } } ?? forms.first { $0.method == "post" }
      entries =
        form?.controls.filter(\.isHidden).compactMap { control in control.entry.map { (control.name, $0) } } ?? []
      referer = page.url
    }
    let body = logout.method == .post ? FormBody(entries.map { ($0.name, .text($0.value)) }).bytes : nil
    let exchange = try await browser.send(
      logout.method, logout.url, body: body, referer: referer, headers: headers, follow: false)
    try StatusRule(success: 200..<400, reportsStatus: true).check(exchange.response, "logout")
  }

  // MARK: - Helpers

  private func jar(_ current: IssuedSession) throws -> CookieJar {
    guard let state = current.providerState, let jar = try? CookieJar(serialized: state, clock: clock) else {
      // Nothing to present to the site: the session cannot be used again.
      throw ProviderError(.sessionRejected, "the stored cookie jar is missing or unreadable")
    }
    return jar
  }

  /// 429 and 5xx: the site's trouble, never an answer about the user.
  private static func checkTransient(_ response: HTTPResponse) throws {
    if let failure = RemoteFailures.providerError(status: response) { throw failure }
  }
}
