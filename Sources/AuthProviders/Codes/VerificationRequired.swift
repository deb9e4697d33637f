/// A first login step that succeeded but needs a second one: carried by `ProviderError.verificationRequired` and
/// answered `verification_required`, with what the host needs to ask for the code.
///
/// The challenge is a secret like a password: it stands for the first step already passed. It goes to the host
/// in the answer and nowhere else; `description` (which reaches the diagnostics log) leaves it out.
package struct VerificationRequired: Sendable, Equatable, CustomStringConvertible {
  /// What the host may offer, in the order to offer them.
  package var methods: [VerificationMethod]
  /// Opaque, single-use, short-lived; bound to the account and to the first step that produced it.
  package var challenge: String
  /// Unix seconds: when the challenge stops being accepted.
  package var expiresAt: Int64
  /// Where a code was sent when the provider sent one while answering (masked); nil otherwise.
  package var sentTo: String?
  /// Unix seconds: when `sendCode {challenge}` may send another code; nil when no code was sent.
  package var resendAt: Int64?

  package init(
    methods: [VerificationMethod], challenge: String, expiresAt: Int64, sentTo: String? = nil, resendAt: Int64? = nil
  ) {
    self.methods = methods
    self.challenge = challenge
    self.expiresAt = expiresAt
    self.sentTo = sentTo
    self.resendAt = resendAt
  }

  package var description: String {
    "verification required (\(methods.map(\.rawValue).joined(separator: ", ")); challenge withheld)"
  }
}

/// Why a code was not accepted. Both answer `invalid_credentials`, with `data.reason` telling the host whether
/// to let the user type again (`invalid_code`) or to ask for a new code (`code_expired`).
package enum CodeRefusal: String, Sendable, Equatable {
  /// Wrong, already used, spent its attempts, or no such code: one answer for all, so nothing tells which.
  case invalidCode = "invalid_code"
  /// The code (or the challenge it belongs to) is past its time.
  case codeExpired = "code_expired"
}
