import AuthConfig
import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthSupport

/// The `rest` provider: any JSON or form login API, described by `RESTProviderConfig` — endpoints, body
/// templates, and the paths of the fields in its answers.
///
/// Outcomes are decided from structure alone: the status, the configured `success` rule, whether a plausible
/// access token is there. A refused login is `invalidCredentials` whatever the server's text says (or
/// `unknownAccount` when the profile reads that from the answer); a 2xx that is accepted without a plausible
/// token is `badResponse`, never a session. 429, 5xx and transport failures go through `RemoteFailures`, like
/// every remote provider. Nothing here logs a body, a token or a password: log lines carry statuses and reasons.
///
/// A tokenless API (no `response.accessToken`) gives sessions with `tokenType` `"none"` and an empty access
/// token, as the form provider's are stored. Sessions of unknown expiry are re-checked: see
/// `RESTProvider+Refresh.swift`.
package final class RESTProvider: IdentityProvider {
  package static let tokenlessType = "none"

  package let kind = ProviderKind.rest

  let config: RESTProviderConfig
  let client: any HTTPClient
  let clock: any Clock
  let log: Logger
  /// Set when the API wants `{password}` encrypted with its RSA key.
  let passwordEncryption: RESTPasswordEncryption?
  /// The profile's code rules: the lifetimes and cooldown assumed when the API's answers do not say.
  let codes: CodesConfig
  /// Who each pending step-up is for, so a resend can say where the code goes (see `RESTChallenges`).
  let challenges = RESTChallenges()

  package init(
    config: RESTProviderConfig, client: any HTTPClient, clock: any Clock, log: Logger, codes: CodesConfig = .defaults
  ) {
    self.config = config
    self.client = client
    self.clock = clock
    self.log = log
    passwordEncryption = config.loginRequest.passwordEncryption.map(RESTPasswordEncryption.init)
    self.codes = codes
  }

  // MARK: - Login

  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    let values = RESTTemplateValues.login(
      account, password: try await passwordToSend(password), request: config.loginRequest)
    let response = try await send(config.login, values, bearer: nil, idempotent: false)
    // Before the status: a server demanding a code often says so with a 401 or 403.
    try demandedStepUp(response, account: account)
    do {
      try StatusRule.login.check(response, "rest login")
    } catch let error as ProviderError where error.code == .invalidCredentials {
      throw refusal(RESTAnswer.json(response.body), error.detail)
    }
    return try await session(from: response, account: account, refusal: .invalidCredentials)
  }

  /// The session in a login-like answer that passed its status check (a password or code login, a step-up).
  /// - Parameters:
  ///   - account: who logged in, when known (a step-up's second step may not know it).
  ///   - refusal: what a 2xx whose success rule does not hold means (`invalidCredentials` is refined by the
  ///     profile's `unknownAccount` rule).
  func session(from response: HTTPResponse, account: LoginAccount?, refusal: ProviderError.Code) async throws
    -> IssuedSession
  {
    let answer = RESTAnswer.json(response.body)
    guard let answer, answer.objectValue != nil else {
      throw ProviderError(.badResponse, "rest login answer is not a JSON object")
    }
    guard let tokens = try RESTAnswer.tokens(answer, config.response, "rest login") else {
      let detail = "rest login refused: the success rule does not hold"
      if case .invalidCredentials = refusal { throw self.refusal(answer, detail) }
      throw ProviderError(refusal, detail)
    }
    guard asksUserEndpoint(tokens, account: account) else {
      let claims = tokens.accessToken.flatMap(RESTAnswer.jwtClaims)
      var session = issued(tokens, user: .pending, claims: claims, previous: nil)
      session.user = try await loginUser(tokens, claims: claims, answer: answer, account: account)
      return session
    }
    // The user endpoint is asked with the new tokens, which are final: the caller may store them meanwhile. Their
    // session (the token's claims decoded for its expiry) is made by whoever needs it first: the caller's write,
    // which starts once the user request is out, or this login once the user arrives.
    let now = clock.now()
    let pending = IssuedTokens { [self] in
      issued(tokens, user: .pending, claims: tokens.accessToken.flatMap(RESTAnswer.jwtClaims), previous: nil, now: now)
    }
    LoginProgress.report(pending)
    // No claims: with a user endpoint to ask, they never name the user.
    let user = try await loginUser(tokens, claims: nil, answer: answer, account: account)
    var session = pending.session
    session.user = user
    return session
  }

  /// Whether `loginUser` asks the user endpoint (the answer does not carry a user of its own).
  private func asksUserEndpoint(_ tokens: RESTAnswer.Tokens, account: LoginAccount?) -> Bool {
    guard config.user != nil else { return false }
    guard let object = tokens.user else { return true }
    return RESTAnswer.user(object, config.userFields, fallbackUsername: account?.typed) == nil
  }

  /// A refused login: `unknownAccount` when the profile's `unknownAccount` rule holds in the answer, else the
  /// generic `invalidCredentials`.
  private func refusal(_ answer: JSONValue?, _ detail: String) -> ProviderError {
    if let rule = config.response.unknownAccount, let answer, rule.holds(in: answer) {
      return ProviderError(.unknownAccount, "rest login refused: the answer says the account is unknown")
    }
    return ProviderError(.invalidCredentials, detail)
  }

  /// The user after a login: from the answer's `user`, else from the user endpoint with the new token, else from
  /// the token's JWT claims; a tokenless answer is read as the user itself (the flag APIs put `userId` beside
  /// their flags); else what the user typed.
  /// - Parameter account: nil for a step-up's second step whose first the provider no longer remembers.
  private func loginUser(_ tokens: RESTAnswer.Tokens, claims: JSONObject?, answer: JSONValue, account: LoginAccount?)
    async throws -> UserInfo
  {
    // What the user typed is the name the server knows them by.
    let typed = account?.typed
    if let object = tokens.user, let user = RESTAnswer.user(object, config.userFields, fallbackUsername: typed) {
      return user
    }
    if config.user != nil {
      do {
        return try await remoteUser(
          accessToken: tokens.accessToken.map(Self.secret), fallbackUsername: typed, refusals: [401])
      } catch let error as ProviderError where error.code == .sessionRejected {
        // The session just issued is refused by the same API: its answer cannot be trusted.
        throw ProviderError(.badResponse, "rest user endpoint refused the new session")
      }
    }
    if let claims, let user = RESTAnswer.user(claims: claims, fallbackUsername: typed) { return user }
    if config.isTokenless, let object = answer.objectValue,
      let user = RESTAnswer.user(object, config.userFields, fallbackUsername: typed)
    {
      return user
    }
    guard let account else { throw ProviderError(.badResponse, "rest login answer names no user") }
    return Self.user(named: account)
  }

  /// The session an accepted answer gives; `previous` is the session a refresh replaces, whose refresh token and
  /// token type stay when the answer has none.
  /// - Parameter now: when the answer arrived (its `expires_in` counts from then); the clock's time when nil.
  func issued(
    _ tokens: RESTAnswer.Tokens, user: UserInfo, claims: JSONObject?, previous: IssuedSession?, now: Int64? = nil
  ) -> IssuedSession {
    let now = now ?? clock.now()
    // Unknown expiry: the next re-check, marked as such (`RESTSessionState`).
    let known = tokens.expiresIn.map { now + $0 } ?? RESTAnswer.jwtExpiry(claims)
    return IssuedSession(
      user: user, accessToken: Self.secret(tokens.accessToken ?? ""),
      // An API that does not rotate answers without a refresh token: the one we have stays valid.
      refreshToken: tokens.refreshToken.map(Self.secret) ?? previous?.refreshToken,
      tokenType: config.isTokenless ? Self.tokenlessType : tokens.tokenType ?? previous?.tokenType ?? "Bearer",
      expiresAt: known ?? nextRecheck(), providerState: known == nil ? RESTSessionState.recheck : nil)
  }

  /// When a session of unknown expiry is next checked with the server.
  func nextRecheck() -> Int64 { clock.now() + Int64(config.sessionLifetimeSeconds) }

  // MARK: - Registration

  package func register(_ registration: Registration, password: String) async throws -> UserInfo {
    guard let endpoint = config.register else { throw ProviderError(.unsupported, "no register endpoint configured") }
    let values = RESTTemplateValues.registration(registration, password: try await passwordToSend(password))
    let response = try await send(endpoint, values, bearer: nil, idempotent: false)
    try StatusRule.register.check(response, "rest register")
    let answer = RESTAnswer.json(response.body)
    guard !RESTAnswer.saysFailed(answer, config.response) else {
      throw ProviderError(.badResponse, "rest register refused with \(response.status)")
    }
    // The user in the answer: at `response.user`, or the answer itself when it has the user's id.
    var object = config.response.user.flatMap { answer?.value(at: $0)?.objectValue }
    if object == nil, answer?.value(at: config.userFields.id) != nil { object = answer?.objectValue }
    if let object, let user = RESTAnswer.user(object, config.userFields, fallbackUsername: registration.username) {
      return user
    }
    return UserInfo(
      id: registration.username, username: registration.username, email: registration.email,
      phone: registration.phone, displayName: registration.displayName)
  }

  // MARK: - Revoke, user

  package func retirement(of current: IssuedSession) -> Retirement {
    endsSessionsBeyondTheStore ? .atServer : .storeOnly
  }

  /// Without a logout endpoint there is nothing to end a session with but the store.
  package var endsSessionsBeyondTheStore: Bool { config.logout != nil }

  package func revoke(_ current: IssuedSession) async throws {
    // Without a logout endpoint nothing is revoked, and `revoked: false` must say so.
    guard let endpoint = config.logout else { throw ProviderError(.unsupported, "no logout endpoint configured") }
    let values = RESTTemplateValues(refreshToken: current.refreshToken.map(Self.text))
    let response = try await send(
      endpoint, values, bearer: endpoint.sendAccessToken ? current.accessToken : nil, idempotent: false)
    try StatusRule.plain.check(response, "rest logout")
    // A 204 or `{}` is fine; only an answer that says it failed is not.
    guard !RESTAnswer.saysFailed(RESTAnswer.json(response.body), config.response) else {
      throw ProviderError(.badResponse, "rest logout answered \(response.status) with a failure")
    }
  }

  /// A GET of the user endpoint only reads; a user endpoint configured with another method is not sent ahead.
  package var fetchesUserAhead: Bool { config.user?.method == .get }

  /// The user endpoint's user; without a user endpoint, the user as the login or last refresh gave it.
  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    guard config.user != nil else { return FetchedUser(current.user) }
    let user = try await remoteUser(
      accessToken: bearer(of: current), fallbackUsername: current.user.knownUsername, refusals: [401])
    return FetchedUser(user)
  }

  /// The session's access token to present; nil for a tokenless session.
  func bearer(of session: IssuedSession) -> SecretBytes? { config.isTokenless ? nil : session.accessToken }

  /// The user endpoint's user; `sessionRejected` when it answers one of `refusals` or says it failed.
  func remoteUser(accessToken: SecretBytes?, fallbackUsername: String?, refusals: Set<Int>) async throws -> UserInfo {
    guard let endpoint = config.user else { throw ProviderError(.unsupported, "no user endpoint configured") }
    let response = try await send(
      endpoint, RESTTemplateValues(), bearer: accessToken, idempotent: endpoint.method == .get)
    try StatusRule(refused: refusals, refusal: .sessionRejected).check(response, "rest user endpoint")
    guard let answer = RESTAnswer.json(response.body) else {
      throw ProviderError(.badResponse, "rest user answer is not JSON")
    }
    if RESTAnswer.saysFailed(answer, config.response) {
      throw ProviderError(.sessionRejected, "rest user endpoint answered that the success rule fails")
    }
    let object = endpoint.userPath.map { answer.value(at: $0)?.objectValue } ?? answer.objectValue
    guard let object, let user = RESTAnswer.user(object, config.userFields, fallbackUsername: fallbackUsername) else {
      throw ProviderError(.badResponse, "rest user answer has no user")
    }
    return user
  }

  // MARK: - Transport

  /// Sends one request to `url` within the profile's `timeoutSeconds`, retries included.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await RemoteFailures.send(request, with: client, within: .seconds(config.timeoutSeconds))
  }

  /// Sends one request to `endpoint` within the profile's `timeoutSeconds`, retries included.
  func send(
    _ endpoint: RESTProviderConfig.Endpoint, _ values: RESTTemplateValues, bearer: SecretBytes?, idempotent: Bool
  ) async throws -> HTTPResponse {
    var headers = config.headers.map { HTTPHeader($0.name, $0.value) }
    if !headers.contains(where: { $0.name.lowercased() == "accept" }) {
      headers.append(HTTPHeader("Accept", "application/json"))
    }
    let body = RESTBody.render(endpoint, values)
    if let body { headers.append(HTTPHeader("Content-Type", body.contentType)) }
    if let bearer { headers.append(HTTPHeader("Authorization", config.authScheme + " " + Self.text(bearer))) }
    let request = HTTPRequest(
      method: endpoint.method, url: config.url(endpoint), headers: headers, body: body?.bytes,
      redirects: .followSameOrigin(max: 3), idempotent: idempotent)
    return try await send(request)
  }

  static func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

  static func text(_ secret: SecretBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}
