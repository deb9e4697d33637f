import AuthCrypto
import AuthSupport

/// The authorization code grant for a native app (RFC 8252): PKCE S256 (RFC 7636), a loopback redirect, and an
/// ID token bound to the request by its `nonce`.
extension OAuth2Provider {
  /// How long one wait on the listener lasts: the longest a cancelled login keeps its port open.
  static let listenerStepMilliseconds: Int32 = 100

  func authorizationCodeLogin(_ endpoints: OAuth2Metadata, prompt: LoginPromptSink) async throws -> IssuedSession {
    guard let authorizationEndpoint = endpoints.authorizationEndpoint else {
      throw ProviderError(.unsupported, "the issuer has no authorization_endpoint")
    }
    let pkce = try PKCE.generate(random)
    let state = try RequestNonce.generate(random)
    let nonce = try RequestNonce.generate(random)
    let listener = try LoopbackListener()
    // Closed on every way out (success, refusal, timeout, cancellation): the port lives only for this login.
    defer { listener.close() }
    let redirectURI = listener.redirectURI
    var query = FormBody([
      ("response_type", .text("code")), ("client_id", .text(settings.clientID)), ("redirect_uri", .text(redirectURI)),
    ])
    if let scope = scopeParameter { query.append("scope", .text(scope)) }
    query.append("state", .text(state))
    query.append("nonce", .text(nonce))
    query.append("code_challenge", .text(pkce.challenge))
    query.append("code_challenge_method", .text(PKCE.method))
    let separator = authorizationEndpoint.contains("?") ? "&" : "?"
    let authorizationURL = authorizationEndpoint + separator + String(decoding: query.bytes, as: UTF8.self)
    let deadline = interactiveDeadline()
    log.info("oauth2: authorization code flow started; listening on \(listener.address.literal):\(listener.port)")
    prompt(.authorizationCode(authorizationURL: authorizationURL, redirectURI: redirectURI, expiresAt: deadline))

    let code = try await awaitCode(listener, state: state, until: deadline)
    listener.close()
    let now = clock.now()
    let form = FormBody([
      ("grant_type", .text("authorization_code")), ("code", .secret(code)), ("redirect_uri", .text(redirectURI)),
      ("code_verifier", .secret(pkce.verifier)),
    ])
    let answer = try await token(form, at: endpoints.tokenEndpoint, grant: .authorizationCode)
    let user = try await newUser(answer, endpoints, nonce: answer.idToken == nil ? nil : nonce, account: nil)
    log.info("oauth2: authorization code flow succeeded")
    return session(answer, user: user, now: now, previous: nil)
  }

  /// Serves the listener in short steps on the `Blocking` pool until the redirect with our `state` arrives,
  /// the deadline passes, or the task is cancelled (seen between two steps).
  private func awaitCode(_ listener: LoopbackListener, state: String, until deadline: Int64) async throws
    -> SecretBytes
  {
    let issuer = settings.issuer
    while true {
      try Task.checkCancellation()
      guard clock.now() < deadline else { throw ProviderError(.notCompleted, "no authorization response in time") }
      let outcome = try await Blocking.run {
        listener.step(milliseconds: Self.listenerStepMilliseconds, state: state, issuer: issuer)
      }
      switch outcome {
      case nil: continue
      case .code(let code)?: return code
      case .refused(let errorCode)?:
        log.info("oauth2: authorization refused (\(errorCode ?? "no error code"))")
        // RFC 6749 §4.1.2.1: `access_denied` is the user's (or the server's policy's) no; the other codes
        // are a request the server would not take, which the user cannot fix by trying again.
        if errorCode == "access_denied" {
          throw ProviderError(.declined, "the user denied the authorization", upstreamCode: errorCode)
        }
        throw ProviderError(.badResponse, "the authorization server refused the request", upstreamCode: errorCode)
      case .wrongIssuer?:
        throw ProviderError(.badResponse, "the authorization response names another issuer (RFC 9207)")
      }
    }
  }
}
