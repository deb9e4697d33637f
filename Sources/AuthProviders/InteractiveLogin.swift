import AuthConfig

/// What the host must show or open while an interactive login waits for the user. None of it is a secret:
/// the user code is meant to be typed by the user, the authorization URL carries only the PKCE challenge,
/// `state` and `nonce` (all three single-use, and visible to the browser anyway).
package enum LoginPrompt: Sendable, Equatable {
  /// RFC 8628 §3.3: show `userCode` and `verificationURI` (or open `verificationURIComplete`).
  case device(userCode: String, verificationURI: String, verificationURIComplete: String?, expiresAt: Int64)
  /// RFC 8252 §7.3: open `authorizationURL` in the user's browser; the server redirects to `redirectURI`.
  case authorizationCode(authorizationURL: String, redirectURI: String, expiresAt: Int64)

  package var flow: LoginFlow {
    switch self {
    case .device: .device
    case .authorizationCode: .authorizationCode
    }
  }
}

/// Receives the prompt once the flow is ready for the user (called at most once per login).
package typealias LoginPromptSink = @Sendable (LoginPrompt) -> Void

extension IdentityProvider {
  /// Providers without interactive flows (local, rest) answer `unsupported`.
  package func interactiveLogin(_ flow: LoginFlow, profile: String, prompt: @escaping LoginPromptSink)
    async throws -> IssuedSession
  {
    throw ProviderError(.unsupported, "\(kind) has no \(flow.rawValue) login")
  }
}

/// The sign-ins `status` offers for a profile: never one whose `login` would answer `unsupported`.
package struct OfferedLoginFlows: Sendable, Equatable {
  package var flows: [LoginFlow]
  /// Nil when no server document decides the flows. Otherwise whether that document (OAuth2 discovery) is still
  /// to be fetched: `flows` are then the configured ones, not yet checked against what the server announces.
  package var discoveryPending: Bool?

  package init(_ flows: [LoginFlow], discoveryPending: Bool? = nil) {
    self.flows = flows
    self.discoveryPending = discoveryPending
  }
}

extension IdentityProvider {
  package func offeredLoginFlows(_ configured: [LoginFlow]) async -> OfferedLoginFlows {
    OfferedLoginFlows(configured)
  }
}
