import AuthConfig
import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthSupport
import Synchronization
import Testing

@testable import AuthProviders

/// The `rest` provider's decisions against an API in memory: refusals named by the `unknownAccount` rule, tokens
/// that are no tokens, and sessions of unknown expiry re-checked instead of ended. (The real servers'
/// shapes run end to end in AuthSidecarEndToEndTests.)
@Suite struct RESTProviderTests {
  static let base = "https://api.example"
  static let now: Int64 = 1_800_000_000
  static let alice = LoginAccount(kind: .username, text: "alice")

  static func path(_ text: String) -> RESTProviderConfig.FieldPath { RESTProviderConfig.FieldPath(parsing: text)! }

  static func config(
    _ response: RESTProviderConfig.ResponseFields, user: RESTProviderConfig.Endpoint? = nil,
    refresh: RESTProviderConfig.Endpoint? = nil
  ) -> RESTProviderConfig {
    let login = RESTProviderConfig.Endpoint(
      path: "/login", body: [RESTProviderConfig.BodyField("p", RESTProviderConfig.Template([.placeholder(.password)]))])
    return RESTProviderConfig(
      baseURL: base, login: login, refresh: refresh, user: user, response: response, sessionLifetimeSeconds: 3600)
  }

  static func provider(_ config: RESTProviderConfig, _ handler: @escaping FormStubSite.Handler) -> RESTProvider {
    RESTProvider(config: config, client: FormStubSite(handler), clock: ManualClock(now), log: Logger(level: .error))
  }

  static func json(_ text: String, status: Int = 200, bom: Bool = false) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [HTTPHeader("Content-Type", "text/html")],
      body: (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8), finalURL: "")
  }

  static func login(_ provider: RESTProvider) async throws -> IssuedSession {
    try await provider.login(alice, password: "pw", profile: "default")
  }

  static func code(_ body: () async throws -> Void) async -> ProviderError.Code? {
    do {
      try await body()
      return nil
    } catch let error as ProviderError {
      return error.code
    } catch {
      return nil
    }
  }

  static let unknownRule = AnswerRule([.init(path("error"), equals: .string("NO_SUCH_USER"))])

  /// An API without a logout endpoint cannot revoke: a replaced or logged-out session is only forgotten, and no
  /// revocation is started for it.
  @Test func onlyAnAPIWithALogoutEndpointIsAskedToRevoke() throws {
    let config = Self.config(.init(accessToken: Self.path("token")))
    let without = Self.provider(config) { _ in Self.json("{}") }
    let session = IssuedSession(
      user: UserInfo(id: "1", username: "alice"), accessToken: SecretBytes(Array("t".utf8)), refreshToken: nil,
      tokenType: "Bearer", expiresAt: Self.now + 60)
    guard case .storeOnly = without.retirement(of: session) else {
      Issue.record("an API without a logout endpoint is asked to revoke")
      return
    }
    // So a new login need not read the session it replaces.
    #expect(!without.endsSessionsBeyondTheStore)
    let logout = RESTProviderConfig.Endpoint(path: "/logout")
    let with = Self.provider(
      RESTProviderConfig(baseURL: Self.base, login: config.login, logout: logout, response: config.response)
    ) { _ in Self.json("{}") }
    guard case .atServer = with.retirement(of: session) else {
      Issue.record("an API with a logout endpoint is not asked to revoke")
      return
    }
    #expect(with.endsSessionsBeyondTheStore)
  }

  /// Only a GET of the user endpoint may be sent before the session is confirmed, and thrown away.
  @Test func onlyAUserEndpointReadWithGETIsFetchedAhead() {
    let config = Self.config(.init(accessToken: Self.path("token")))
    func provider(user: RESTProviderConfig.Endpoint?) -> RESTProvider {
      let withUser = RESTProviderConfig(baseURL: Self.base, login: config.login, user: user, response: config.response)
      return Self.provider(withUser) { _ in Self.json("{}") }
    }
    #expect(provider(user: RESTProviderConfig.Endpoint(path: "/me", method: .get)).fetchesUserAhead)
    #expect(!provider(user: RESTProviderConfig.Endpoint(path: "/me", method: .post)).fetchesUserAhead)
    #expect(!provider(user: nil).fetchesUserAhead)
  }

  @Test func aRefusalIsGenericUnlessTheUnknownAccountRuleHolds() async {
    let answer = Self.json(#"{"error": "NO_SUCH_USER"}"#, status: 401)
    let generic = Self.provider(Self.config(.init(accessToken: Self.path("token")))) { _ in answer }
    #expect(await Self.code { _ = try await Self.login(generic) } == .invalidCredentials)
    let reading = Self.provider(
      Self.config(.init(accessToken: Self.path("token"), unknownAccount: Self.unknownRule))) { _ in answer }
    #expect(await Self.code { _ = try await Self.login(reading) } == .unknownAccount)
    // Another refusal stays generic on the profile that reads unknown accounts.
    let wrong = Self.provider(
      Self.config(.init(accessToken: Self.path("token"), unknownAccount: Self.unknownRule))
    ) { _ in Self.json(#"{"error": "BAD_PASSWORD"}"#, status: 401) }
    #expect(await Self.code { _ = try await Self.login(wrong) } == .invalidCredentials)
  }

  /// Without a success rule, a 2xx is accepted on its token alone: one that is missing or a flag is a misread
  /// answer, never a session.
  @Test(arguments: [#"{}"#, #"{"token": "0"}"#, #"{"token": 12345678901}"#, #"{"token": true}"#])
  func aTwoHundredWithoutAPlausibleTokenIsABadResponse(_ body: String) async {
    let provider = Self.provider(Self.config(.init(accessToken: Self.path("token")))) { _ in Self.json(body) }
    #expect(await Self.code { _ = try await Self.login(provider) } == .badResponse)
  }

  @Test func aTokenWithAStatedExpiryEndsWithoutARefreshEndpoint() async throws {
    let fields = RESTProviderConfig.ResponseFields(accessToken: Self.path("token"), expiresIn: Self.path("ttl"))
    let provider = Self.provider(Self.config(fields)) { _ in
      Self.json(#"{"token": "tok-abcdefgh", "ttl": 600}"#, bom: true)
    }
    let session = try await Self.login(provider)
    #expect(session.expiresAt == Self.now + 600)
    #expect(session.providerState == nil)
    #expect(session.tokenType == "Bearer")
    #expect(await Self.code { _ = try await provider.refresh(session, profile: "default") } == .sessionRejected)
  }

  /// No `expiresIn`, no JWT `exp`: the next re-check, and with nobody to ask, the session is extended.
  @Test func aTokenOfUnknownExpiryIsReCheckedNotEnded() async throws {
    let provider = Self.provider(Self.config(.init(accessToken: Self.path("token")))) { _ in
      Self.json(#"{"token": "tok-abcdefgh"}"#)
    }
    let session = try await Self.login(provider)
    #expect(session.expiresAt == Self.now + 3600)
    #expect(RESTSessionState.isRecheck(session.providerState))
    guard case .issued(let extended) = try await provider.refresh(session, profile: "default") else {
      Issue.record("a rest refresh issues a session")
      return
    }
    #expect(extended.expiresAt == Self.now + 3600)
    #expect(RESTSessionState.isRecheck(extended.providerState))
    #expect(!provider.canRefresh(session))
  }

  /// A tokenless session carries the user and re-checks through the user endpoint, without a token: 403 ends it.
  @Test func aTokenlessSessionIsReCheckedThroughTheUserEndpoint() async throws {
    let fields = RESTProviderConfig.ResponseFields(
      accessToken: nil, user: Self.path("user"), success: AnswerRule([.init(Self.path("ok"), equals: .string("1"))]))
    let user = RESTProviderConfig.Endpoint(path: "/me", method: .get)
    let site = FormStubSite { request in
      if request.url.hasSuffix("/login") { return Self.json(#"{"ok": "1", "user": {"id": 7, "username": "alice"}}"#) }
      return Self.json(#"{"error": "forbidden"}"#, status: 403)
    }
    let provider = RESTProvider(
      config: Self.config(fields, user: user), client: site, clock: ManualClock(Self.now), log: Logger(level: .error))
    let session = try await Self.login(provider)
    #expect(session.tokenType == "none")
    #expect(session.accessToken.withUnsafeBytes { $0.isEmpty })
    #expect(session.user.id == "7")
    #expect(await Self.code { _ = try await provider.refresh(session, profile: "default") } == .sessionRejected)
    #expect(!site.requests.contains { $0.headers.contains { $0.name == "Authorization" } })
  }

  /// A login that asks the user endpoint reports its tokens before sending that request, as a session made at most
  /// once (its expiry read from the token's claims): the one the login returns, with the user added.
  @Test func aLoginReportsItsTokensBeforeTheUserRequestAsTheSessionItReturns() async throws {
    let token = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE4MDAwMDA2MDB9.c2lnbmF0dXJl"
    let user = RESTProviderConfig.Endpoint(path: "/me", method: .get)
    let site = FormStubSite { request in
      if request.url.hasSuffix("/login") { return Self.json(#"{"token": "\#(token)"}"#) }
      return Self.json(#"{"id": 7, "username": "alice"}"#)
    }
    let provider = RESTProvider(
      config: Self.config(.init(accessToken: Self.path("token")), user: user), client: site,
      clock: ManualClock(Self.now), log: Logger(level: .error))
    let reported = Mutex<[(IssuedTokens, Int)]>([])
    let listener = LoginProgress.Listener { tokens in reported.withLock { $0.append((tokens, site.requests.count)) } }
    let session = try await LoginProgress.$listener.withValue(listener) { try await Self.login(provider) }
    let reports = reported.withLock { $0 }
    try #require(reports.count == 1)
    // Reported once the login answered, before the user request went out.
    #expect(reports[0].1 == 1)
    let pending = reports[0].0.session
    #expect(pending.user.isPending)
    #expect(pending.expiresAt == Self.now + 600)
    #expect(session.user.id == "7")
    #expect(session.expiresAt == pending.expiresAt)
    #expect(session.accessToken.withUnsafeBytes { Array($0) } == pending.accessToken.withUnsafeBytes { Array($0) })
    #expect(site.requests.count == 2)
  }
}
