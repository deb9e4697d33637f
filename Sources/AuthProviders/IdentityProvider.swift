import AuthConfig
import AuthStorage

/// Persists a refreshed session. Returns false when the profile's session moved on (a logout or
/// a new login since the refresh began); the refresh is then discarded.
package typealias SessionCommit = @Sendable (WriteTransaction, IssuedSession) throws -> Bool

/// One way of logging in: the embedded accounts, a REST API, an OAuth2/OIDC server, an HTML form.
package protocol IdentityProvider: Sendable {
  /// The config name: `local`, `rest`, `oauth2` or `form`.
  var kind: ProviderKind { get }
  var supportsRegistration: Bool { get }

  /// - Throws: `ProviderError` (`invalidCredentials` for any refused login, whatever the cause).
  func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession

  /// Logs in through a flow where the user acts elsewhere (a browser, another device). `prompt` is called
  /// once, when the user can act; the call then waits for the outcome. Cancelling the task stops the wait.
  /// The default (see `InteractiveLogin.swift`) answers `unsupported`.
  /// - Throws: `ProviderError` (`unsupported`, `invalidCredentials` when the user refused, `timeout` when the
  ///   user did not act in time, …), or `CancellationError`.
  func interactiveLogin(_ flow: LoginFlow, profile: String, prompt: @escaping LoginPromptSink)
    async throws -> IssuedSession

  /// - Throws: `ProviderError` (`alreadyExists`, `unsupported`, …).
  func register(_ registration: Registration, password: String) async throws -> UserInfo

  /// Exchanges `current`'s refresh token for new tokens and persists them through `commit`.
  /// A provider with its own state in the store (`local`) calls `commit` inside the same
  /// transaction that rotates the token, so a crash can never keep one without the other.
  /// - Returns: the new session, or nil when `commit` discarded it.
  /// - Throws: `ProviderError.sessionRejected` when the refresh token is refused.
  func refresh(_ current: SessionRecord, profile: String, commit: @escaping SessionCommit) async throws -> IssuedSession?

  /// Revokes the session at the provider (best effort; the caller bounds the time).
  func revoke(_ current: SessionRecord) async throws

  /// The user as the provider knows it now.
  func fetchUser(_ current: SessionRecord) async throws -> UserInfo
}
