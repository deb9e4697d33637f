/// Why a session operation could not give the host a session.
package struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Code: Sendable, Equatable {
    /// No session; `lastAccount` is the account that last logged in, if still remembered.
    case notLoggedIn(lastAccount: String?)
    /// The provider refused the refresh token; the local session has been cleared.
    case sessionExpired
    /// The request named a profile the config does not have.
    case unknownProfile(String)
    /// The profile's provider cannot do this (e.g. register on a provider without an endpoint).
    case unsupported
  }

  package let code: Code

  package init(_ code: Code) { self.code = code }

  package var description: String { "SessionError.\(code)" }
}

/// What changed about a profile's session, for the `sessionChanged` notification.
package enum SessionChange: String, Sendable {
  case loggedIn, refreshed, loggedOut, expired
}
