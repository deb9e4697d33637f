/// The simulated server's test cards: like a payment provider's test card numbers, the account a test logs in with
/// chooses what the server does, so a host can reach every answer its login UI must handle without a real server.
/// The keyword is the account's name up to its `@` (or a `+` tag before it), in any case: `locked@example.com`,
/// `Locked+2@example.com` and the username `locked` are all `locked`; a phone number is always `ordinary`.
/// docs/simulated-provider.md is the table hosts read; each case names its row.
package enum SimulatedAccount: String, Sendable, CaseIterable {
  /// Logs in with the password `correct`; refreshes and fetches work.
  case ordinary
  /// `rate_limited` with a fixed `retryAfter`, whatever the password.
  case locked
  /// `rate_limited` with `data.reason: "locked"` and no `retryAfter`: no wait ends it.
  case blocked
  /// `invalid_credentials` with `data.reason: "unknown_account"`.
  case unknown
  /// `network_unavailable`.
  case offline
  /// `timeout`, after the profile's `timeoutSeconds`.
  case slow
  /// `server_error` with `data.status` 503.
  case error
  /// `bad_response`: the server answered something unreadable.
  case garbled
  /// `tls_error`: the server's certificate is not trusted.
  case untrusted
  /// Logs in; afterwards the server is unreachable, so `getUser {refresh: true}` answers from the store, stale.
  case stale
  /// Logs in with a session due for refresh 60 s later, and the refresh is refused: `session_expired`.
  case expiring
  /// The correct password answers `verification_required`; the code completes the login.
  case mfa
  /// `register` answers `already_exists` for this username or email.
  case taken

  package init(_ account: String) {
    let name = account.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let keyword = name.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0].lowercased()
    self = Self(rawValue: keyword) ?? .ordinary
  }
}
