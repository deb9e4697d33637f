/// Why a session operation could not give the host a session.
package struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Code: Sendable, Equatable {
    /// No session; `lastAccount` is the account that last logged in, if still remembered.
    case notLoggedIn(lastAccount: String?)
    /// The session is over: the provider refused it (or it was unusable, see `StoredSession`). The local copy
    /// has already been cleared.
    case sessionExpired
    /// The request named a profile the config does not have.
    case unknownProfile(String)
  }

  package let code: Code

  package init(_ code: Code) { self.code = code }

  package var description: String { "SessionError.\(code)" }
}

