import AuthConfig
import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthSupport

/// An OAuth 2.0 / OpenID Connect authorization server: discovery, the password grant (only when the profile
/// opts in), the refresh grant with rotation, revocation (RFC 7009), userinfo and ID-token validation.
///
/// Interactive hosts log in with the device authorization grant (RFC 8628, `OAuth2Provider+Device.swift`) or
/// the authorization code grant with PKCE and a loopback redirect (RFC 8252,
/// `OAuth2Provider+AuthorizationCode.swift`); `login` with a password on a profile without
/// `allowPasswordGrant` answers `unsupported`.
///
/// Discovery and the JWKS are fetched on first use and kept for the life of the process (the JWKS is fetched
/// again when an ID token names a key it does not hold, at most once a minute). Nothing here logs a token, code,
/// secret or body.
package final class OAuth2Provider: IdentityProvider {
  package let kind = ProviderKind.oauth2

  /// Used when a token answer has neither `expires_in` nor a JWT `exp`: the common lifetime of an hour.
  static let defaultLifetime: Int64 = 3600

  let settings: OAuth2Settings
  let transport: OAuth2Transport
  let clock: any Clock
  /// `state`, `nonce` and the PKCE verifier of the authorization code flow.
  let random: any RandomSource
  let log: Logger
  let metadata: FetchOnce<OAuth2Metadata>
  private let directory: OAuth2Directory

  /// - Parameter directory: where discovery documents and key sets are cached; the executable passes one
  ///   shared by every profile.
  package init(
    settings: OAuth2Settings, http: any HTTPClient, clock: any Clock,
    random: any RandomSource = SystemRandomSource(), log: Logger, directory: OAuth2Directory = OAuth2Directory()
  ) {
    let transport = OAuth2Transport(
      http: http, clientID: settings.clientID, clientSecret: settings.clientSecret, timeout: settings.timeout)
    if let endpoints = settings.endpoints {
      metadata = FetchOnce { OAuth2Metadata(endpoints) }
    } else {
      metadata = directory.metadata(issuer: settings.issuer) { [issuer = settings.issuer] in
        try await Self.discover(issuer: issuer, transport: transport, log: log)
      }
    }
    self.settings = settings
    self.transport = transport
    self.clock = clock
    self.random = random
    self.log = log
    self.directory = directory
  }

  /// The issuer's key set, fetched on first use.
  private func keySets(_ endpoints: OAuth2Metadata) throws -> FetchOnce<JSONWebKeySet> {
    guard let url = endpoints.jwksURI else {
      throw ProviderError(.badResponse, "an ID token came back but the issuer names no JWKS")
    }
    return directory.keys(at: url, clock: clock) { [transport, log] in
      try await Self.fetchKeys(url, transport: transport, log: log)
    }
  }

  // MARK: - Login

  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    guard settings.allowPasswordGrant else {
      throw ProviderError(.unsupported, "password grant not enabled for this profile (RFC 9700 §2.4)")
    }
    let endpoints = try await metadata.get().value
    // Taken before the request, so the stored expiry is never later than the server's.
    let now = clock.now()
    var form = FormBody([
      ("grant_type", .text("password")), ("username", .text(account.text)), ("password", .text(password)),
    ])
    if !settings.scopes.isEmpty { form.append("scope", .text(settings.scopes.joined(separator: " "))) }
    let answer = try await token(form, at: endpoints.tokenEndpoint, grant: .password)
    var issued = session(answer, user: .pending, now: now, previous: nil)
    // Userinfo is asked with the new tokens, which are final: the caller may store them meanwhile.
    if answer.idToken == nil, endpoints.userinfoEndpoint != nil { LoginProgress.report(issued) }
    issued.user = try await newUser(answer, endpoints, nonce: nil, account: account.text)
    log.debug("oauth2: password grant succeeded")
    return issued
  }

  /// The user of a new session: from its ID token (checked against `nonce` when one was sent), else from
  /// userinfo, else named by the account typed (a password login on a plain OAuth server).
  /// - Throws: `ProviderError.badResponse` when none of those can name the user.
  func newUser(_ answer: TokenAnswer, _ endpoints: OAuth2Metadata, nonce: String?, account: String?) async throws
    -> UserInfo
  {
    if let idToken = answer.idToken {
      return try await verifiedUser(idToken, endpoints, accessToken: answer.accessToken, subject: nil, nonce: nonce)
    }
    if let userinfo = endpoints.userinfoEndpoint {
      do {
        return try await userInfo(at: userinfo, accessToken: answer.accessToken, subject: nil)
      } catch let error as ProviderError where error.code == .sessionRejected {
        throw ProviderError(.badResponse, "userinfo refused a fresh access token")
      }
    }
    guard let account else { throw ProviderError(.badResponse, "no ID token and no userinfo endpoint name the user") }
    return UserInfo(id: account, username: account)
  }

  // MARK: - Refresh

  package func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    guard let refreshToken = current.refreshToken else { throw ProviderError(.sessionRejected, "no refresh token") }
    let endpoints = try await metadata.get().value
    let now = clock.now()
    // No `scope`: RFC 6749 §6 then grants the scope of the original grant.
    let form = FormBody([("grant_type", .text("refresh_token")), ("refresh_token", .secret(refreshToken))])
    let answer = try await token(form, at: endpoints.tokenEndpoint, grant: .refresh)
    var user = current.user
    if let idToken = answer.idToken {
      // OIDC Core §12.2: a refreshed ID token must name the subject the session was opened for.
      user = try await verifiedUser(idToken, endpoints, accessToken: answer.accessToken, subject: current.user.id)
    }
    log.debug("oauth2: refresh grant succeeded")
    return .issued(session(answer, user: user, now: now, previous: current))
  }

  /// The new session from a token answer. A refresh answer without a refresh token keeps the old one
  /// (RFC 6749 §6: the server may keep it unchanged); without `scope` the scopes stay as they were.
  func session(_ answer: TokenAnswer, user: UserInfo, now: Int64, previous: IssuedSession?) -> IssuedSession {
    let lifetime = answer.expiresIn ?? Self.jwtLifetime(answer.accessToken, now: now) ?? Self.defaultLifetime
    if answer.expiresIn == nil { log.info("oauth2: token answer without expires_in; assuming \(lifetime) s") }
    return IssuedSession(
      user: user, accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? previous?.refreshToken,
      idToken: answer.idToken.map { SecretBytes(Array($0.utf8)) } ?? previous?.idToken, tokenType: answer.tokenType,
      expiresAt: now + lifetime, scopes: answer.scopes ?? previous?.scopes ?? settings.scopes)
  }

  // MARK: - Token endpoint

  /// The grants sent to the token endpoint (named in logs; a refresh's refusals mean something else).
  enum Grant: String {
    case password, refresh
    case authorizationCode = "authorization code"
  }

  /// Posts to the token endpoint and reads the answer.
  /// - Throws: `ProviderError`: for a login, `invalidCredentials` on 400/401 (RFC 6749 §5.2: `invalid_grant` is
  ///   a wrong password or a spent authorization code, `invalid_client` a refused client); for a refresh,
  ///   `sessionRejected` on `invalid_grant` only (a refused, rotated, revoked or expired refresh token),
  ///   `badResponse` otherwise, so a misconfigured client never ends the session. 429 and 5xx as in
  ///   `RemoteFailures`. The `error` code travels as `upstreamCode`.
  func token(_ form: FormBody, at url: String, grant: Grant) async throws -> TokenAnswer {
    let response = try await transport.post(url, form)
    if (200..<300).contains(response.status) { return try TokenAnswer.parse(response.body) }
    if let failure = RemoteFailures.providerError(status: response) { throw failure }
    let code = TokenAnswer.errorCode(response)
    log.info(
      "oauth2: token endpoint answered \(response.status) to a \(grant.rawValue) grant (\(code ?? "no error code"))")
    if grant == .refresh {
      if code == "invalid_grant" { throw ProviderError(.sessionRejected, "refresh token refused", upstreamCode: code) }
      throw ProviderError(.badResponse, "token endpoint refused a refresh (\(response.status))", upstreamCode: code)
    }
    if [400, 401].contains(response.status) || code == "invalid_grant" || code == "invalid_client" {
      throw ProviderError(.invalidCredentials, "token endpoint refused the login", upstreamCode: code)
    }
    throw ProviderError(.badResponse, "token endpoint answered \(response.status)", upstreamCode: code)
  }

  /// The remaining lifetime from the access token's `exp`, when it is a JWT (read, not verified: it only
  /// schedules the next refresh).
  static func jwtLifetime(_ accessToken: SecretBytes, now: Int64) -> Int64? {
    let text = accessToken.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    guard let parts = try? JWSCompact.split(text), case .object(let claims)? = try? JSONParser.parse(parts.payload),
      let expires = IDTokenValidator.seconds(claims["exp"])
    else { return nil }
    return min(max(expires - now, 0), TokenAnswer.maxLifetime)
  }

  // MARK: - ID token

  /// Validates the ID token and returns its user; `subject`, when given, must be its `sub`; `nonce`, when
  /// given, its `nonce`.
  /// - Throws: `ProviderError.badResponse` for any failed rule.
  private func verifiedUser(
    _ idToken: String, _ endpoints: OAuth2Metadata, accessToken: SecretBytes, subject: String?, nonce: String? = nil
  ) async throws -> UserInfo {
    let validator = IDTokenValidator(
      issuer: settings.issuer, clientID: settings.clientID, leeway: settings.idTokenLeeway,
      algorithms: endpoints.idTokenAlgorithms)
    let claims: JSONObject
    do {
      let header = try validator.header(idToken)
      let keySets = try keySets(endpoints)
      var (keys, version) = try await keySets.get()
      if let keyID = header.keyID, !keys.contains(keyID: keyID) {
        // The issuer may have rotated its keys since we fetched them: look once more (unless we just did).
        log.info("oauth2: ID token names a key the cached JWKS lacks; fetching the JWKS again")
        (keys, version) = try await keySets.refetch(after: version)
      }
      claims = try validator.validate(idToken, keys: keys, now: clock.now(), accessToken: accessToken, nonce: nonce)
    } catch let failure as IDTokenValidator.Failure {
      log.warning("oauth2: \(failure)")
      throw ProviderError(.badResponse, failure.description)
    }
    guard let user = OIDCUser.user(from: claims) else { throw ProviderError(.badResponse, "ID token has no sub") }
    if let subject, user.id != subject { throw ProviderError(.badResponse, "ID token names another subject") }
    return user
  }

  // MARK: - User

  /// A userinfo GET with the access token (or nothing to send, without a userinfo endpoint).
  package var fetchesUserAhead: Bool { true }

  /// Userinfo's user; without a userinfo endpoint, the user as the login or last refresh gave it.
  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    let endpoints = try await metadata.get().value
    guard let endpoint = endpoints.userinfoEndpoint else { return FetchedUser(current.user) }
    // A 401 here (`sessionRejected`) goes back to SessionService, which refreshes once — or adopts the token
    // another process sharing the store has just rotated in — and asks again.
    // A pending user (a login stopped before its userinfo arrived) names no subject to hold the answer to.
    let subject = current.user.isPending ? nil : current.user.id
    return FetchedUser(try await userInfo(at: endpoint, accessToken: current.accessToken, subject: subject))
  }

  /// OIDC Core §5.3. A plain JSON answer only (a signed userinfo JWT is not supported).
  /// - Throws: `ProviderError`: `sessionRejected` on 401 (the access token is refused), `badResponse` when
  ///   the answer is unusable or names another subject than `subject` (§5.3.2).
  private func userInfo(at url: String, accessToken: SecretBytes, subject: String?) async throws -> UserInfo {
    let response = try await transport.get(url, bearer: accessToken)
    try StatusRule(success: StatusRule.only200.success, refused: [401], refusal: .sessionRejected)
      .check(response, "userinfo")
    guard case .object(let claims)? = try? JSONParser.parse(response.body), let user = OIDCUser.user(from: claims)
    else { throw ProviderError(.badResponse, "userinfo answer is not a JSON object with a sub") }
    if let subject, user.id != subject { throw ProviderError(.badResponse, "userinfo names another subject") }
    return user
  }

  // MARK: - Revocation

  /// RFC 7009: the refresh token first (which on most servers ends the access token too), then the access
  /// token. Both are tried; the first failure is thrown after both.
  package func revoke(_ current: IssuedSession) async throws {
    let endpoints = try await metadata.get().value
    guard let endpoint = endpoints.revocationEndpoint else {
      throw ProviderError(.unsupported, "the issuer has no revocation endpoint")
    }
    var failure: (any Error)?
    if let refreshToken = current.refreshToken {
      do { try await revokeToken(refreshToken, hint: "refresh_token", at: endpoint) } catch { failure = error }
    }
    do { try await revokeToken(current.accessToken, hint: "access_token", at: endpoint) } catch {
      failure = failure ?? error
    }
    if let failure { throw failure }
  }

  private func revokeToken(_ token: SecretBytes, hint: String, at url: String) async throws {
    let form = FormBody([("token", .secret(token)), ("token_type_hint", .text(hint))])
    let response = try await transport.post(url, form)
    if response.status == 200 { return }
    if let failure = RemoteFailures.providerError(status: response) { throw failure }
    let code = TokenAnswer.errorCode(response)
    // §2.2.1: a server that cannot revoke access tokens says so; revoking the refresh token was what counted.
    if hint == "access_token", code == "unsupported_token_type" { return }
    throw ProviderError(.badResponse, "revocation answered \(response.status)", upstreamCode: code)
  }

  // MARK: - Discovery and keys

  static func discover(issuer: String, transport: OAuth2Transport, log: Logger) async throws -> OAuth2Metadata {
    let response = try await transport.get(OAuth2URL.discoveryURL(issuer: issuer), followRedirects: true)
    try StatusRule.only200.check(response, "discovery")
    let metadata = try OAuth2Metadata.parse(discovery: response.body, issuer: issuer)
    log.debug("oauth2: discovery document read; ID token algorithms \(metadata.idTokenAlgorithms.map(\.rawValue))")
    return metadata
  }

  static func fetchKeys(_ url: String, transport: OAuth2Transport, log: Logger) async throws -> JSONWebKeySet {
    let response = try await transport.get(url, followRedirects: true)
    try StatusRule.only200.check(response, "JWKS")
    let keys = try JSONWebKeySet.parse(response.body)
    log.debug("oauth2: JWKS read; \(keys.keys.count) usable signing keys")
    return keys
  }
}

extension StatusRule {
  /// Discovery, the JWKS and userinfo succeed with 200 only (OIDC Discovery §4.2, OIDC Core §5.3.2).
  fileprivate static let only200 = StatusRule(success: 200..<201)
}
