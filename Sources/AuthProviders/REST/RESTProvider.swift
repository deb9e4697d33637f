import AuthConfig
import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthSupport

/// The `rest` provider: any JSON or form login API, described by `RESTProviderConfig` — endpoints, body
/// templates, and the paths of the fields in its answers.
///
/// Outcomes are decided from structure alone: the status, the configured `success` flag, whether an access
/// token is there. A refused login is `invalidCredentials` whatever the server's text says; 429, 5xx and
/// transport failures go through `RemoteFailures`, like every remote provider. Nothing here logs a body, a token
/// or a password: log lines carry statuses and reasons only.
package final class RESTProvider: IdentityProvider {
  package let kind = ProviderKind.rest

  /// When the answer gives no `expiresIn` and the access token carries no JWT `exp`.
  static let defaultLifetimeSeconds: Int64 = 300

  let config: RESTProviderConfig
  private let client: any HTTPClient
  let clock: any Clock
  private let log: Logger
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
    self.codes = codes
  }

  // MARK: - Login

  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    let response = try await send(
      config.login, RESTTemplateValues.login(account, password: password), bearer: nil, idempotent: false)
    // Before the status: a server demanding a code often says so with a 401 or 403.
    try demandedStepUp(response, account: account)
    try StatusRule.login.check(response, "rest login")
    return try await session(from: response, account: account, refusal: .invalidCredentials, profile: profile)
  }

  /// The session in a login-like answer that passed its status check (a password or code login, a step-up).
  /// - Parameters:
  ///   - account: who logged in, when known (a step-up's second step may not know it).
  ///   - refusal: what a 2xx without a success flag or an access token means.
  func session(from response: HTTPResponse, account: LoginAccount?, refusal: ProviderError.Code, profile: String)
    async throws -> IssuedSession
  {
    guard let answer = RESTAnswer.json(response.body), answer.objectValue != nil else {
      throw ProviderError(.badResponse, "rest login answer is not a JSON object")
    }
    guard let tokens = RESTAnswer.tokens(answer, config.response) else {
      throw ProviderError(refusal, "rest login refused: no success flag or no access token")
    }
    try Self.checkSendable(tokens.accessToken)
    let claims = RESTAnswer.jwtClaims(tokens.accessToken)
    let user = try await loginUser(tokens, claims: claims, account: account)
    return IssuedSession(
      user: user, accessToken: Self.secret(tokens.accessToken), refreshToken: tokens.refreshToken.map(Self.secret),
      tokenType: tokens.tokenType ?? "Bearer", expiresAt: expiry(tokens, claims: claims, profile: profile))
  }

  /// The user after a login: from the answer, else from the user endpoint with the new token, else from the
  /// token's JWT claims, else what the user typed.
  private func loginUser(_ tokens: RESTAnswer.Tokens, claims: JSONObject?, account: LoginAccount?) async throws
    -> UserInfo
  {
    let typed = account?.text
    if let object = tokens.user, let user = RESTAnswer.user(object, config.userFields, fallbackUsername: typed) {
      return user
    }
    if config.user != nil {
      do {
        return try await remoteUser(accessToken: Self.secret(tokens.accessToken), fallbackUsername: typed)
      } catch let error as ProviderError where error.code == .sessionRejected {
        // The token just issued is refused by the same API: its answer cannot be trusted.
        throw ProviderError(.badResponse, "rest user endpoint refused the new access token")
      }
    }
    if let claims, let user = RESTAnswer.user(claims: claims, fallbackUsername: typed) { return user }
    guard let account else { throw ProviderError(.badResponse, "rest login answer names no user") }
    return Self.user(named: account)
  }

  /// Unix seconds: `expiresIn` from now, else the JWT `exp` claim, else a default lifetime (logged).
  private func expiry(_ tokens: RESTAnswer.Tokens, claims: JSONObject?, profile: String) -> Int64 {
    let now = clock.now()
    if let seconds = tokens.expiresIn { return now + seconds }
    if let exp = RESTAnswer.jwtExpiry(claims) { return exp }
    log.info(
      "profile \(profile): the API gave no expiresIn and the access token has no JWT exp; assuming "
        + "\(Self.defaultLifetimeSeconds) s")
    return now + Self.defaultLifetimeSeconds
  }

  // MARK: - Registration

  package func register(_ registration: Registration, password: String) async throws -> UserInfo {
    guard let endpoint = config.register else { throw ProviderError(.unsupported, "no register endpoint configured") }
    let response = try await send(
      endpoint, RESTTemplateValues.registration(registration, password: password), bearer: nil, idempotent: false)
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

  // MARK: - Refresh

  package func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    guard let endpoint = config.refresh else { throw ProviderError(.sessionRejected, "no refresh endpoint configured") }
    guard let refreshToken = current.refreshToken else { throw ProviderError(.sessionRejected, "no refresh token") }
    let values = RESTTemplateValues(refreshToken: Self.text(refreshToken))
    let response = try await send(endpoint, values, bearer: nil, idempotent: false)
    try StatusRule.refresh.check(response, "rest refresh")
    guard let answer = RESTAnswer.json(response.body), answer.objectValue != nil else {
      throw ProviderError(.badResponse, "rest refresh answer is not a JSON object")
    }
    guard let tokens = RESTAnswer.tokens(answer, config.response) else {
      throw ProviderError(.sessionRejected, "rest refresh refused: no success flag or no access token")
    }
    try Self.checkSendable(tokens.accessToken)
    let user =
      tokens.user.flatMap { RESTAnswer.user($0, config.userFields, fallbackUsername: current.user.username) }
      ?? current.user
    let claims = RESTAnswer.jwtClaims(tokens.accessToken)
    return .issued(
      IssuedSession(
        user: user, accessToken: Self.secret(tokens.accessToken),
        // An API that does not rotate answers without a refresh token: the one we have stays valid.
        refreshToken: tokens.refreshToken.map(Self.secret) ?? refreshToken,
        tokenType: tokens.tokenType ?? current.tokenType, expiresAt: expiry(tokens, claims: claims, profile: profile)))
  }

  // MARK: - Revoke, user

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

  /// The user endpoint's user; without a user endpoint, the user as the login or last refresh gave it.
  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    guard config.user != nil else { return FetchedUser(current.user) }
    return FetchedUser(try await remoteUser(accessToken: current.accessToken, fallbackUsername: current.user.username))
  }

  /// The user endpoint's user; `sessionRejected` when it refuses the access token.
  private func remoteUser(accessToken: SecretBytes, fallbackUsername: String?) async throws -> UserInfo {
    guard let endpoint = config.user else { throw ProviderError(.unsupported, "no user endpoint configured") }
    let response = try await send(
      endpoint, RESTTemplateValues(), bearer: accessToken, idempotent: endpoint.method == .get)
    try StatusRule.accessToken.check(response, "rest user endpoint")
    guard let answer = RESTAnswer.json(response.body) else {
      throw ProviderError(.badResponse, "rest user answer is not JSON")
    }
    if RESTAnswer.saysFailed(answer, config.response) {
      throw ProviderError(.sessionRejected, "rest user endpoint answered success=false")
    }
    let object = endpoint.userPath.map { answer.value(at: $0)?.objectValue } ?? answer.objectValue
    guard let object, let user = RESTAnswer.user(object, config.userFields, fallbackUsername: fallbackUsername) else {
      throw ProviderError(.badResponse, "rest user answer has no user")
    }
    return user
  }

  // MARK: - Transport

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
    return try await RemoteFailures.send(request, with: client, within: .seconds(config.timeoutSeconds))
  }

  /// The access token goes back in an `Authorization` header: visible ASCII only (RFC 6750's b64token is
  /// narrower still), so a token cannot smuggle a header of its own or fail every later request.
  private static func checkSendable(_ accessToken: String) throws {
    guard accessToken.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw ProviderError(.badResponse, "access token is not visible ASCII")
    }
  }

  static func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

  private static func text(_ secret: SecretBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}
