import AuthStorage

/// How a session is ended at its provider when a new login replaces it or a logout clears it. A replaced session
/// must end exactly like a logged-out one: left alive, every login on a profile would leave one more valid refresh
/// token behind.
package enum Retirement: Sendable {
  /// Inside the very transaction that replaces or clears the stored session: the local provider, whose server
  /// state lives in the same store. Both commit together, so no crash can leave a replaced session's tokens usable.
  case inStore(@Sendable (WriteTransaction) throws -> Void)
  /// At the provider's server with `revoke`, best effort and outside any transaction, once the store has changed.
  case atServer
  /// Nowhere beyond the store: the provider has no way to end a session at its server (a profile without a logout
  /// endpoint), so there is no `revoke` to call, nor a task to start for it; a logout answers `revoked: false`.
  case storeOnly
}

extension IdentityProvider {
  /// Remote providers revoke at their server.
  package func retirement(of current: IssuedSession) -> Retirement { .atServer }

  package var endsSessionsBeyondTheStore: Bool { true }
}
