/// Why a provider could not do what was asked, in the terms hosts act on.
///
/// Network-side failures (`networkUnavailable`, `timeout`, `serverError`, `rateLimited`) are
/// transient and never end a session; `sessionRejected` means the provider refused the refresh
/// token, so the session is over.
package struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Code: Sendable, Equatable {
    case invalidCredentials
    /// A refused login whose answer says no account has the identity: only when the profile is configured to read
    /// that (`rest`'s `response.unknownAccount`), because the server already tells anyone who asks. Answered as
    /// `invalid_credentials` with `data.reason: "unknown_account"`, so a host can offer to register instead.
    case unknownAccount
    case alreadyExists(field: String?)
    case sessionRejected
    case rateLimited(retryAfter: Int64?)
    /// The local provider's hard limit: too many consecutive failed logins; no wait ends it, only a password change
    /// or `users unlock`. Answered as `rate_limited` with `data.reason: "locked"`.
    case locked
    case networkUnavailable
    case timeout
    case serverError(status: Int?)
    case badResponse
    case tlsError
    case unsupported
    /// The user refused an interactive login (RFC 8628 / RFC 6749 `access_denied`) or the server ended it
    /// with another authorization error. Answered as `invalid_credentials`: the login was refused.
    case declined
    /// The user did not complete an interactive login in time (our deadline, or the device code expired).
    case notCompleted
    /// The first login step passed; a second one (a code) is needed. Answered `verification_required`.
    case verificationRequired(VerificationRequired)
    /// A one-time code was not accepted. Answered `invalid_credentials` with `data.reason`.
    case codeRefused(CodeRefusal)
    /// No code may be sent before `resendAt` (Unix seconds): the resend cooldown, the daily cap, or the server's
    /// own "too soon". Answered `rate_limited` with `retryAfter` and `data.resendAt`.
    case codeRateLimited(retryAfter: Int64, resendAt: Int64)
    /// The code could not be delivered (the delivery command failed, or the server's SMS/email gateway did).
    /// Answered `server_error` with `data.reason: "delivery_failed"`: sending again may work.
    case deliveryFailed
  }

  package let code: Code
  /// For the diagnostics log only: never a secret, never shown to the host.
  package let detail: String
  /// The upstream error code (e.g. OAuth's `invalid_grant`), when there was one.
  package let upstreamCode: String?
  /// The HTTP status of a `badResponse` the host can act on, e.g. a site refusing a form post with 403 (its
  /// CSRF check); `serverError` carries its own.
  package let status: Int?

  package init(_ code: Code, _ detail: String, upstreamCode: String? = nil, status: Int? = nil) {
    self.code = code
    self.detail = detail
    self.upstreamCode = upstreamCode
    self.status = status
  }

  package var isTransient: Bool {
    switch code {
    case .networkUnavailable, .timeout, .serverError, .rateLimited, .codeRateLimited, .deliveryFailed: return true
    default: return false
    }
  }

  package var description: String { "ProviderError.\(code): \(detail)" }
}
