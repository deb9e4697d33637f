import AuthConfig

/// One way of logging in: the embedded accounts, a REST API, an OAuth2/OIDC server, an HTML form.
///
/// A provider talks to its server and returns values. `SessionService` (AuthSession) reads the client's session
/// from the store, decodes it once and hands it here as an `IssuedSession`; it alone writes sessions back, holds
/// the profile lock and checks that the session did not change meanwhile. The one exception is the local
/// provider's refresh, which must happen inside that write: see `LocalRotation`.
package protocol IdentityProvider: Sendable {
  /// The config name: `local`, `rest`, `oauth2` or `form`.
  var kind: ProviderKind { get }

  /// - Throws: `ProviderError` (`invalidCredentials` for any refused login, whatever the cause).
  func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession

  /// Logs in through a flow where the user acts elsewhere (a browser, another device). `prompt` is called
  /// once, when the user can act; the call then waits for the outcome. Cancelling the task stops the wait.
  /// The default (see `InteractiveLogin.swift`) answers `unsupported`.
  /// - Throws: `ProviderError` (`unsupported`, `invalidCredentials` when the user refused, `timeout` when the
  ///   user did not act in time, …), or `CancellationError`.
  func interactiveLogin(_ flow: LoginFlow, profile: String, prompt: @escaping LoginPromptSink)
    async throws -> IssuedSession

  /// Which of the `configured` login flows this provider can serve now, for `status`. The default offers them
  /// all; an `oauth2` provider keeps only the flows its server announced (see `OfferedLoginFlows`).
  func offeredLoginFlows(_ configured: [LoginFlow]) async -> OfferedLoginFlows

  /// Creates an account. The default answers `unsupported`.
  /// - Throws: `ProviderError` (`alreadyExists`, `unsupported`, …).
  func register(_ registration: Registration, password: String) async throws -> UserInfo

  /// Exchanges `current`'s refresh token for new tokens; `SessionService` stores them, unless a logout or a new
  /// login happened meanwhile (the refresh is then discarded).
  /// - Throws: `ProviderError.sessionRejected` when the refresh token is refused.
  func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed

  /// Whether `session` has a refresh to fall back on when its access token is refused: if so, one refresh and a
  /// second try; if not, the refusal ends the session at once, with no second request to the server. The default
  /// (see below): it has a refresh token.
  func canRefresh(_ session: IssuedSession) -> Bool

  /// Revokes the session at the provider (best effort; the caller bounds the time).
  func revoke(_ current: IssuedSession) async throws

  /// How `current` is ended when a new login replaces it or a logout clears it. The default is `.atServer`:
  /// `SessionService` calls `revoke`.
  func retirement(of current: IssuedSession) -> Retirement

  /// False when every session's `retirement` is `.storeOnly`: a new login then does not read (and decrypt) the
  /// session it replaces, which it would only learn needs nothing. The default: true.
  var endsSessionsBeyondTheStore: Bool { get }

  /// The user as the provider knows it now.
  /// - Throws: `ProviderError.sessionRejected` when the provider refuses the session's credential.
  func fetchUser(_ current: IssuedSession) async throws -> FetchedUser

  /// Whether `fetchUser` may be sent before its session is confirmed as the stored one, its outcome thrown away
  /// when it is not: true when the fetch is a request to the provider's server that only reads (no cookie the
  /// server may rotate, nothing stored). The default: false.
  var fetchesUserAhead: Bool { get }

  // MARK: One-time codes (defaults answering `unsupported` are in `Codes/CodeOperations.swift`)

  /// The code flows this profile offers, for `status`; empty for a provider without codes.
  var codeFlows: [CodeFlow] { get }

  /// Sends a one-time code. An account the provider does not know gets the same answer (and takes as long), so
  /// `sendCode` cannot tell which accounts exist.
  /// - Throws: `ProviderError` (`codeRateLimited` inside the resend cooldown or past the daily cap,
  ///   `unsupported`, a transient failure when the delivery failed).
  func sendCode(_ request: CodeRequest, profile: String) async throws -> SentCode

  /// Logs in with a code sent for `CodePurpose.login`.
  /// - Throws: `ProviderError.codeRefused` for a wrong, used or expired code (and for an unknown account).
  func login(_ account: LoginAccount, code: String, profile: String) async throws -> IssuedSession

  /// Completes a login that answered `verificationRequired`, with the code the user typed for its challenge.
  /// - Throws: `ProviderError.codeRefused` (the challenge stays usable for its remaining attempts).
  func verify(challenge: String, code: String, profile: String) async throws -> IssuedSession

  /// Sets a new password with a code sent for `CodePurpose.resetPassword`; the caller has already checked
  /// `newPassword` against the profile's register policy, and ends the account's sessions on success.
  /// - Throws: `ProviderError.codeRefused`, `unsupported`, …
  func resetPassword(_ account: LoginAccount, code: String, newPassword: String, profile: String) async throws
    -> PasswordReset
}

/// What a refresh gives `SessionService` to store.
package enum Refreshed: Sendable {
  /// New tokens from the provider's server.
  case issued(IssuedSession)
  /// The local provider's rotation, run inside the transaction that stores the client's new session.
  case rotation(LocalRotation)
}

/// The user from `fetchUser`, and the provider state as the fetch left it.
package struct FetchedUser: Sendable {
  package var user: UserInfo
  /// The provider's state after the fetch (the form provider's cookie jar, with any cookie the site rotated);
  /// nil for a provider that keeps none. `SessionService` stores it when it changed.
  package var providerState: [UInt8]?

  package init(_ user: UserInfo, providerState: [UInt8]? = nil) {
    self.user = user
    self.providerState = providerState
  }
}

extension IdentityProvider {
  package func canRefresh(_ session: IssuedSession) -> Bool { session.refreshToken != nil }

  package var fetchesUserAhead: Bool { false }

  /// Providers that cannot create accounts (oauth2, form) answer `unsupported`.
  package func register(_ registration: Registration, password: String) async throws -> UserInfo {
    throw ProviderError(.unsupported, "\(kind) does not register accounts")
  }
}
