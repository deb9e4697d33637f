import AuthConfig
import AuthHTML
import AuthHTTP
import AuthSupport
import Testing

@testable import AuthProviders

/// The form provider's three origin checks, one test each: every one of them would let cookies or the password
/// leave the site on its own, and the others do not stand in for it.
@Suite struct FormOriginTests {
  static let site = FormProviderTests.site
  static let origin = RequestTarget.Origin(scheme: "https", host: "site.example", port: 443)

  /// 1. The form's action: refused while the page is read, before the post is even built.
  @Test(arguments: ["https://evil.example/login", "//evil.example/login", "https://site.example:8443/login"])
  func aFormActionOnAnotherOriginIsRefusedByTheLoginPage(action: String) throws {
    let page = #"<form method="post" action="\#(action)"><input name=u><input type=password name=p></form>"#
    let document = try HTMLDocument(parsing: Array(page.utf8), charset: "utf-8")
    let config = FormProviderConfig(
      loginURL: Self.site + "/login", user: .init(url: Self.site + "/me", fields: .json(.defaults)))
    let refused = #expect(throws: ProviderError.self) {
      try FormLoginPage(document, pageURL: Self.site + "/login", config: config, origin: Self.origin)
    }
    #expect(refused?.detail.contains("posts to another origin") == true)
  }

  /// 2. A redirect: not followed. The user page of a logged-out browser sending it to a sign-in page elsewhere
  /// (single sign-on) means the session is over (`session_expired`), and nothing is sent there.
  @Test func aUserPageRedirectingToAnotherOriginEndsTheSessionWithNothingSentThere() async throws {
    let login = try FormProviderTests.Fixture()
    let record = try await login.login()
    let sso = try FormProviderTests.Fixture { request in
      request.url.hasSuffix("/me")
        ? FormStubSite.redirect("https://sso.example/authorize?next=/me") : FormProviderTests.djangoLike(request)
    }
    await #expect { try await sso.provider.refresh(record, profile: "default") } throws: {
      ($0 as? ProviderError)?.code == .sessionRejected
    }
    await #expect { try await sso.provider.fetchUser(record) } throws: {
      ($0 as? ProviderError)?.code == .sessionRejected
    }
    #expect(sso.site.requests.map(\.url) == [Self.site + "/me", Self.site + "/me"])
  }

  /// 3. Every request: a URL on another origin is never asked, whatever led to it (here the browser is handed one
  /// directly, as a config the loader would refuse could).
  @Test func theBrowserSendsNoRequestToAnotherOrigin() async throws {
    let site = FormStubSite { _ in FormStubSite.html("must not be reached") }
    var browser = FormBrowser(
      jar: CookieJar(clock: ManualClock(0)), client: site, origin: Self.origin, timeoutSeconds: 5,
      log: Logger(level: .error))
    for url in ["https://evil.example/me", "http://127.0.0.1/me", "https://site.example:444/me"] {
      let refused = await #expect(throws: ProviderError.self) { try await browser.send(.get, url) }
      #expect(refused?.code == .badResponse)
    }
    #expect(site.requests.isEmpty)
  }
}
