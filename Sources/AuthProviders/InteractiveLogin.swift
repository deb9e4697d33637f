/// A login where the user acts outside the host (RFC 8628 device flow, RFC 6749 authorization code with a
/// loopback redirect): the provider tells the host what to show or open, then waits for the outcome.
package enum InteractiveFlow: String, Sendable, CaseIterable {
  case device
  case authorizationCode
}

/// What the host must show or open while an interactive login waits for the user. None of it is a secret:
/// the user code is meant to be typed by the user, the authorization URL carries only the PKCE challenge,
/// `state` and `nonce` (all three single-use, and visible to the browser anyway).
package enum LoginPrompt: Sendable, Equatable {
  /// RFC 8628 §3.3: show `userCode` and `verificationURI` (or open `verificationURIComplete`).
  case device(userCode: String, verificationURI: String, verificationURIComplete: String?, expiresAt: Int64)
  /// RFC 8252 §7.3: open `authorizationURL` in the user's browser; the server redirects to `redirectURI`.
  case authorizationCode(authorizationURL: String, redirectURI: String, expiresAt: Int64)

  package var flow: InteractiveFlow {
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
  package func interactiveLogin(_ flow: InteractiveFlow, profile: String, prompt: @escaping LoginPromptSink)
    async throws -> IssuedSession
  {
    throw ProviderError(.unsupported, "\(kind) has no \(flow.rawValue) login")
  }
}
