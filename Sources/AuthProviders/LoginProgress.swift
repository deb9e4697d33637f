import Synchronization

/// How a provider's login tells its caller that the session's tokens are issued while it still fetches the user
/// with them (a REST user endpoint, OIDC userinfo): the caller can then make the tokens durable during that last
/// request instead of after it (`SessionService.login`). Nobody listening, reporting does nothing.
package enum LoginProgress {
  /// Who listens: gets the issued tokens, whose session has `UserInfo.pending` as its user. (A struct, not an
  /// optional closure as the task-local's type: that one crashed the 6.3.1 compiler's optimized build of the caller.)
  package struct Listener: Sendable {
    let tokensIssued: @Sendable (IssuedTokens) -> Void

    package init(tokensIssued: @escaping @Sendable (IssuedTokens) -> Void) {
      self.tokensIssued = tokensIssued
    }
  }

  /// Set by the caller around `IdentityProvider.login`.
  @TaskLocal package static var listener: Listener?

  /// Reports `tokens` to the caller listening, if any.
  package static func report(_ tokens: IssuedTokens) {
    listener?.tokensIssued(tokens)
  }

  /// Reports a session already worked out (its user `UserInfo.pending`) to the caller listening, if any.
  package static func report(_ session: IssuedSession) {
    listener?.tokensIssued(IssuedTokens(session))
  }
}

/// The session a login's new tokens make (its user `UserInfo.pending`), worked out once, by whoever needs it first.
///
/// A provider reports its tokens before it sends the user request, and the caller's write of them starts only once
/// that request is out: handing over how to make the session, rather than the session, keeps the work of making it
/// (a REST login decodes the access token's claims for its expiry) from delaying the user request.
package final class IssuedTokens: Sendable {
  private let make: @Sendable () -> IssuedSession
  private let made = Mutex<IssuedSession?>(nil)

  package init(_ make: @escaping @Sendable () -> IssuedSession) {
    self.make = make
  }

  package convenience init(_ session: IssuedSession) {
    self.init { session }
  }

  /// The session, made on the first call; every call returns the same one.
  package var session: IssuedSession {
    made.withLock { made in
      if let made { return made }
      let session = make()
      made = session
      return session
    }
  }
}

extension UserInfo {
  /// The user of a session whose tokens are known while the user is still being fetched: never answered to a host.
  package static let pending = UserInfo(id: "", username: "")

  package var isPending: Bool { self == .pending }

  /// The name the user is known by; nil while the user is pending (a login stopped before its user arrived).
  package var knownUsername: String? { isPending ? nil : username }
}
