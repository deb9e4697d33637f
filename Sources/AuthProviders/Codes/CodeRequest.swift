/// A `sendCode` request as the provider sees it: already validated, the account normalized.
package struct CodeRequest: Sendable {
  /// Who the code is for.
  package enum Target: Sendable {
    /// An account a user typed (a login, reset or contact-verification form).
    case account(LoginAccount)
    /// The challenge of a pending step-up: the code goes again to where the first one went.
    case challenge(String)
  }

  package var target: Target
  package var purpose: CodePurpose
  /// nil: the account's own kind decides (a phone gets an SMS, anything else an email).
  package var channel: CodeChannel?

  package init(target: Target, purpose: CodePurpose, channel: CodeChannel? = nil) {
    self.target = target
    self.purpose = purpose
    self.channel = channel
  }
}

/// What a host may show after a code was sent. Nothing here is secret: `sentTo` is masked.
package struct SentCode: Sendable, Equatable {
  /// The destination, masked (`+86 138****5678`, `a***@example.com`), so the user recognises it without the
  /// answer disclosing a contact.
  package var sentTo: String
  package var channel: CodeChannel
  /// Unix seconds: the earliest a new code may be asked for (hosts draw the countdown from it).
  package var resendAt: Int64
  /// Unix seconds: when this code stops being accepted.
  package var expiresAt: Int64

  package init(sentTo: String, channel: CodeChannel, resendAt: Int64, expiresAt: Int64) {
    self.sentTo = sentTo
    self.channel = channel
    self.resendAt = resendAt
    self.expiresAt = expiresAt
  }
}

/// A password reset the provider accepted: the account whose password changed, so that `SessionService` can end
/// the sessions it holds for it.
package struct PasswordReset: Sendable, Equatable {
  package var user: UserInfo

  package init(user: UserInfo) { self.user = user }
}
