/// What a one-time code is for. A code is only ever accepted for the purpose it was sent for, so a code
/// requested to verify a contact cannot be spent to log in or to reset a password.
package enum CodePurpose: String, Sendable, CaseIterable, CustomStringConvertible {
  case login
  case register
  case resetPassword
  case verifyContact

  package var description: String { rawValue }
}

/// Where a code travels. The default for an account follows its kind: a phone gets an SMS, an email an email.
package enum CodeChannel: String, Sendable, CaseIterable, CustomStringConvertible {
  case sms
  case email

  package var description: String { rawValue }
}

/// A second step a host may offer when a login answers `verification_required`.
package enum VerificationMethod: String, Sendable, CaseIterable {
  /// A code sent by SMS (by the sidecar itself, or by the server, when it answered).
  case sms
  /// A code sent by email.
  case email
  /// A code from an authenticator app (RFC 6238).
  case totp
  /// One of the account's one-time recovery codes, for when the authenticator is lost.
  case recovery

  package init(_ channel: CodeChannel) {
    switch channel {
    case .sms: self = .sms
    case .email: self = .email
    }
  }
}

/// The code flows a profile offers, listed by `status` so a host knows which buttons to draw. The names follow
/// the provider operations (and the `rest` endpoints) one to one.
package enum CodeFlow: String, Sendable, CaseIterable {
  /// `sendCode` delivers codes.
  case sendCode
  /// `login {account, code}`.
  case loginWithCode
  /// A password login may answer `verification_required`, completed by `login {challenge, code}`.
  case verify
  /// `resetPassword {account, code, newPassword}`.
  case resetPassword
}
