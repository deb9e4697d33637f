import AuthConfig
import AuthCrypto
import AuthJSON

/// Refresh, and the re-check of sessions whose end the server never said.
///
/// A session with a refresh token and a refresh endpoint is refreshed as before. A session of unknown expiry
/// (`RESTSessionState`: no `expiresIn`, no JWT `exp`, or tokenless) that cannot be refreshed is re-checked when
/// its `expiresAt` comes: the user endpoint is asked with the session's token; while the server accepts it the
/// session is kept and moves on by `sessionLifetimeSeconds`, a 401 or 403 or an answer contradicting the `success`
/// rule ends it (`sessionRejected`), a server that cannot be reached keeps it (the error is transient). With no
/// endpoint to ask, nothing can end it but a logout: it is extended as it is.
extension RESTProvider {
  package func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    if let endpoint = config.refresh, let refreshToken = current.refreshToken {
      return .issued(try await refresh(current, refreshToken, at: endpoint))
    }
    guard RESTSessionState.isRecheck(current.providerState) else {
      // Its expiry was the server's word: past it the token is dead, and nothing can renew it.
      throw ProviderError(.sessionRejected, "no refresh endpoint or refresh token, and the token has expired")
    }
    var session = current
    if config.user != nil {
      // A 403 counts too: unlike a getUser, a re-check asks only whether the session is still good.
      session.user = try await remoteUser(
        accessToken: bearer(of: current), fallbackUsername: current.user.username, refusals: [401, 403])
    } else {
      log.debug("profile \(profile): no refresh or user endpoint to re-check the session with; it lasts until logout")
    }
    session.expiresAt = nextRecheck()
    return .issued(session)
  }

  /// A refresh token alone is not enough: without a refresh endpoint (the token may be kept for a logout body),
  /// a refused access token has nothing to be renewed with.
  package func canRefresh(_ session: IssuedSession) -> Bool { config.refresh != nil && session.refreshToken != nil }

  /// Spends the refresh token at `endpoint`. A refusal (400, 401, 403, or the `success` rule failing) is
  /// `sessionRejected`; an accepted answer without a plausible token is `badResponse` and keeps the session.
  private func refresh(_ current: IssuedSession, _ refreshToken: SecretBytes, at endpoint: RESTProviderConfig.Endpoint)
    async throws -> IssuedSession
  {
    let values = RESTTemplateValues(refreshToken: Self.text(refreshToken))
    let response = try await send(endpoint, values, bearer: nil, idempotent: false)
    try StatusRule.refresh.check(response, "rest refresh")
    guard let answer = RESTAnswer.json(response.body), answer.objectValue != nil else {
      throw ProviderError(.badResponse, "rest refresh answer is not a JSON object")
    }
    guard let tokens = try RESTAnswer.tokens(answer, config.response, "rest refresh") else {
      throw ProviderError(.sessionRejected, "rest refresh refused: the success rule does not hold")
    }
    let user =
      tokens.user.flatMap { RESTAnswer.user($0, config.userFields, fallbackUsername: current.user.username) }
      ?? current.user
    let claims = tokens.accessToken.flatMap(RESTAnswer.jwtClaims)
    return issued(tokens, user: user, claims: claims, previous: current)
  }
}
