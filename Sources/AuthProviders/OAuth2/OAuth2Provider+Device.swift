import AuthSupport

/// The device authorization grant (RFC 8628): the user approves on another device while the sidecar polls.
extension OAuth2Provider {
  /// Consecutive transient failures (network, 5xx, 429) tolerated while polling before giving up: a short
  /// outage is ridden out, a server that is gone is reported (with the last failure's kind).
  static let maxTransientPollFailures = 5

  func deviceLogin(_ endpoints: OAuth2Metadata, prompt: LoginPromptSink) async throws -> IssuedSession {
    guard let url = endpoints.deviceAuthorizationEndpoint else {
      throw ProviderError(.unsupported, "the issuer has no device_authorization_endpoint")
    }
    var form = FormBody()
    if let scope = scopeParameter { form.append("scope", .text(scope)) }
    let response = try await transport.post(url, form)
    guard (200..<300).contains(response.status) else {
      if let failure = RemoteFailures.providerError(status: response) { throw failure }
      let code = TokenAnswer.errorCode(response)
      log.info("oauth2: device authorization answered \(response.status) (\(code ?? "no error code"))")
      throw ProviderError(.badResponse, "device authorization answered \(response.status)", upstreamCode: code)
    }
    let authorization = try DeviceAuthorization.parse(response.body)
    let deadline = interactiveDeadline(lifetime: authorization.expiresIn)
    log.info("oauth2: device flow started; polling every \(authorization.interval) s")
    prompt(
      .device(
        userCode: authorization.userCode, verificationURI: authorization.verificationURI,
        verificationURIComplete: authorization.verificationURIComplete, expiresAt: deadline))
    let (answer, now) = try await poll(authorization, at: endpoints.tokenEndpoint, until: deadline)
    let user = try await newUser(answer, endpoints, nonce: nil, account: nil)
    log.info("oauth2: device flow succeeded")
    return session(answer, user: user, now: now, previous: nil)
  }

  /// Polls the token endpoint (§3.4) at the interval until the user acts, the code runs out or the task is
  /// cancelled (the sleep ends at once and throws `CancellationError`).
  /// - Returns: the token answer and the time taken just before the request that got it.
  private func poll(_ authorization: DeviceAuthorization, at url: String, until deadline: Int64) async throws
    -> (TokenAnswer, Int64)
  {
    var interval = authorization.interval
    var failures = 0
    while true {
      try await Task.sleep(for: .seconds(interval))
      let now = clock.now()
      guard now < deadline else { throw ProviderError(.notCompleted, "nobody approved the device code in time") }
      let form = FormBody([
        ("grant_type", .text("urn:ietf:params:oauth:grant-type:device_code")),
        ("device_code", .secret(authorization.deviceCode)),
      ])
      do {
        switch try DevicePoll.classify(try await transport.post(url, form)) {
        case .issued(let answer): return (answer, now)
        case .pending: break
        case .slowDown:
          // §3.5: "increased by 5 seconds for this and all subsequent requests".
          interval += 5
          log.info("oauth2: device flow asked to slow down; polling every \(interval) s")
        }
        failures = 0
      } catch let error as ProviderError where error.isTransient {
        failures += 1
        log.warning("oauth2: device flow poll failed (\(error.code)); \(failures) in a row")
        if failures >= Self.maxTransientPollFailures { throw error }
      }
    }
  }
}
