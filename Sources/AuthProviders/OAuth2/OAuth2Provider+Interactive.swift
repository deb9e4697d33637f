import AuthConfig

extension OAuth2Provider {
  /// The device flow or the authorization code flow, when the profile allows it and the server has the
  /// endpoint it needs.
  package func interactiveLogin(_ flow: LoginFlow, profile: String, prompt: @escaping LoginPromptSink)
    async throws -> IssuedSession
  {
    guard settings.flows.contains(flow) else {
      throw ProviderError(.unsupported, "the \(flow.rawValue) flow is not enabled for this profile")
    }
    let endpoints = try await metadata.get().value
    switch flow {
    case .device: return try await deviceLogin(endpoints, prompt: prompt)
    case .authorizationCode: return try await authorizationCodeLogin(endpoints, prompt: prompt)
    case .password: throw ProviderError(.unsupported, "a password login is not interactive")
    }
  }

  /// The configured flows the server can serve: the device flow needs a `device_authorization_endpoint`, the
  /// authorization code flow an `authorization_endpoint`. Discovery is not started for this (`status` must not
  /// wait on the network): until it ran, the configured flows are offered and `discoveryPending` says so.
  package func offeredLoginFlows(_ configured: [LoginFlow]) async -> OfferedLoginFlows {
    let known = settings.endpoints.map { OAuth2Metadata($0) }
    let fetched = await metadata.fetched
    guard let endpoints = known ?? fetched else {
      return OfferedLoginFlows(configured, discoveryPending: true)
    }
    let flows = configured.filter { flow in
      switch flow {
      case .password: true
      case .device: endpoints.deviceAuthorizationEndpoint != nil
      case .authorizationCode: endpoints.authorizationEndpoint != nil
      }
    }
    return OfferedLoginFlows(flows, discoveryPending: known == nil ? false : nil)
  }

  /// The scopes for a new grant, space-separated (RFC 6749 §3.3); nil when the profile names none.
  var scopeParameter: String? { settings.scopes.isEmpty ? nil : settings.scopes.joined(separator: " ") }

  /// When an interactive wait that starts now ends, by the injected clock: at most `interactiveTimeout`, and
  /// never later than `lifetime` (a device code's). In test mode the clock stands still until the transcript
  /// moves it (`test.advanceClock`), so the wait ends only then, by cancellation, or by the user.
  func interactiveDeadline(lifetime: Int64? = nil) -> Int64 {
    clock.now() + min(settings.interactiveTimeout, lifetime ?? .max)
  }
}
