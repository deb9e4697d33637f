/// How a provider's login tells its caller that the session's tokens are issued while it still fetches the user
/// with them (a REST user endpoint, OIDC userinfo): the caller can then make the tokens durable during that last
/// request instead of after it (`SessionService.login`). Nobody listening, reporting does nothing.
package enum LoginProgress {
  /// Who listens: gets the session with `UserInfo.pending` as its user. (A struct, not an optional closure as the
  /// task-local's type: that one crashed the 6.3.1 compiler's optimized build of the caller.)
  package struct Listener: Sendable {
    let tokensIssued: @Sendable (IssuedSession) -> Void

    package init(tokensIssued: @escaping @Sendable (IssuedSession) -> Void) {
      self.tokensIssued = tokensIssued
    }
  }

  /// Set by the caller around `IdentityProvider.login`.
  @TaskLocal package static var listener: Listener?

  /// Reports `session` (its user `UserInfo.pending`) to the caller listening, if any.
  package static func report(_ session: IssuedSession) {
    listener?.tokensIssued(session)
  }
}

extension UserInfo {
  /// The user of a session whose tokens are known while the user is still being fetched: never answered to a host.
  package static let pending = UserInfo(id: "", username: "")

  package var isPending: Bool { self == .pending }

  /// The name the user is known by; nil while the user is pending (a login stopped before its user arrived).
  package var knownUsername: String? { isPending ? nil : username }
}
