import AuthCrypto
import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthStorage
import AuthSupport
import AuthValidation

/// The one place where any Swift error becomes a JSON-RPC error object.
///
/// What is mapped, and how far the compiler helps:
/// - `RPCError`, `CancellationError` and this module's `ValidationFailure` and `FieldsNotTaken`, each by type.
/// - The error types the methods' callees throw — `SessionError` (AuthSession), `ProviderError` (AuthProviders)
///   and `StorageError` (AuthStorage) — each through an exhaustive `switch` over its code, with no `default`:
///   a new code in any of them does not compile until it is mapped here.
/// - Anything else falls to `default`, and the compiler cannot see it: a new error type in a module, or one a
///   module lets escape unwrapped (a `CryptoError` from the local provider, an `HTTPError` a provider forgot
///   to translate). It is answered `internal` with the generic text, and its type name — never its message,
///   which may hold input — goes to the diagnostics log at info level. A module that adds an error type meant
///   for hosts must add a case here; `ErrorTranslatorTests` pins what reaches `default`.
package struct ErrorTranslator: Sendable {
  /// Where causes are reported (stderr). Only error types and codes are passed: their
  /// messages are built without secrets or input values.
  private let report: @Sendable (String) -> Void

  package init(report: @escaping @Sendable (String) -> Void = { _ in }) { self.report = report }

  package func translate(_ error: any Error, locale: MessageLocale) -> RPCError {
    switch error {
    case let error as RPCError:
      return error
    case is CancellationError:
      return localized(.cancelled, locale)
    case let failure as ValidationFailure:
      let fields = ValidateMethod.fieldsJSON(failure.report, renamed: failure.renamed)
      return localized(.validationFailed, locale, details: ["fields": .object(fields)])
    case let failure as FieldsNotTaken:
      let issue: JSONValue = .object(["code": "not_taken", "message": .string(ErrorMessages.notTaken(locale))])
      var fields = JSONObject()
      for field in failure.fields {
        fields.appendNew(key: field.rawValue, value: .object(["valid": false, "errors": .array([issue])]))
      }
      return localized(.validationFailed, locale, details: ["fields": .object(fields)])
    case let error as SessionError:
      return translate(error, locale)
    case let error as ProviderError:
      report("provider: \(error.description)")
      return translate(error, locale)
    case let error as StorageError:
      report("storage: \(error.description)")
      return translate(error, locale)
    case let error as CryptoError where error.isLibraryUnavailable:
      // As for a missing libcurl: the host learns the request cannot run here, the log says what to install.
      report("crypto: \(error.message)")
      return localized(.unsupported, locale, details: ["reason": "libcrypto_unavailable"])
    default:
      report("internal error: \(type(of: error))")
      return localized(.internal, locale)
    }
  }

  private func translate(_ error: SessionError, _ locale: MessageLocale) -> RPCError {
    switch error.code {
    case .notLoggedIn(let lastAccount):
      return localized(.notLoggedIn, locale, details: lastAccount.map { ["lastAccount": .string($0)] } ?? [:])
    case .sessionExpired:
      return localized(.sessionExpired, locale)
    case .unknownProfile(let name):
      let message = locale == .zhHans ? "配置中没有这个 profile。" : "This profile is not in the configuration."
      return RPCError(.configError, message, details: ["profile": .string(name)])
    }
  }

  private func translate(_ error: ProviderError, _ locale: MessageLocale) -> RPCError {
    var details: JSONObject = [:]
    if let upstream = error.upstreamCode { details["provider"] = .string(upstream) }
    let kind: ErrorKind
    switch error.code {
    case .invalidCredentials: kind = .invalidCredentials
    case .unknownAccount:
      // The same kind as any refused login, so hosts that only know the kind still see a refusal.
      kind = .invalidCredentials
      details["reason"] = "unknown_account"
    case .alreadyExists(let field):
      kind = .alreadyExists
      if let field { details["field"] = .string(field) }
    case .sessionRejected: kind = .sessionExpired
    case .rateLimited(let retryAfter):
      kind = .rateLimited
      if let retryAfter { details["retryAfter"] = .number(JSONNumber(retryAfter)) }
    case .locked:
      // No wait ends a lock (only a new password or an administrator does): a host must not retry it on a timer.
      details["reason"] = "locked"
      return RPCError(.rateLimited, ErrorMessages.locked(locale), details: details, retryable: false)
    case .networkUnavailable: kind = .networkUnavailable
    case .timeout: kind = .timeout
    case .serverError(let status):
      kind = .serverError
      if let status { details["status"] = .number(JSONNumber(status)) }
    case .badResponse:
      kind = .badResponse
      if let status = error.status { details["status"] = .number(JSONNumber(status)) }
    case .tlsError: kind = .tlsError
    case .unsupported: kind = .unsupported
    case .declined:
      // The kind hosts already handle for "the login was refused"; the text says what happened.
      return RPCError(.invalidCredentials, ErrorMessages.declined(locale), details: details)
    case .notCompleted:
      return RPCError(.timeout, ErrorMessages.notCompleted(locale), details: details)
    case .verificationRequired(let required):
      return localized(.verificationRequired, locale, details: Self.details(required))
    case .codeRefused(let refusal):
      details["reason"] = .string(refusal.rawValue)
      return RPCError(.invalidCredentials, ErrorMessages.codeRefused(refusal, locale), details: details)
    case .codeRateLimited(let retryAfter, let resendAt):
      details["retryAfter"] = .number(JSONNumber(max(retryAfter, 1)))
      details["resendAt"] = .string(RFC3339.format(resendAt))
      kind = .rateLimited
    case .deliveryFailed:
      details["reason"] = "delivery_failed"
      return RPCError(.serverError, ErrorMessages.deliveryFailed(locale), details: details)
    }
    return localized(kind, locale, details: details)
  }

  /// `{methods, challenge, expiresAt, sentTo?, resendAt?}`: the challenge is the one secret an error answer
  /// carries, because the host must send it back with the code; it is never reported to the log.
  static func details(_ required: VerificationRequired) -> JSONObject {
    var details: JSONObject = [
      "methods": .array(required.methods.map { .string($0.rawValue) }), "challenge": .string(required.challenge),
      "expiresAt": .string(RFC3339.format(required.expiresAt)),
    ]
    if let sentTo = required.sentTo { details["sentTo"] = .string(sentTo) }
    if let resendAt = required.resendAt { details["resendAt"] = .string(RFC3339.format(resendAt)) }
    return details
  }

  private func translate(_ error: StorageError, _ locale: MessageLocale) -> RPCError {
    // The key check's refusals say which it was (key_source_changed, wrong_key, key_missing), and an unreachable
    // keyring why (keyring_no_session, keyring_no_service, keyring_locked, keyring_timeout, ...).
    let reason: JSONObject = error.reason.map { ["reason": .string($0)] } ?? [:]
    switch error.code {
    case .unavailable: return localized(.storageUnavailable, locale, details: reason)
    case .corrupt: return localized(.storageCorrupt, locale, details: reason)
    case .alreadyExists:
      return localized(.alreadyExists, locale, details: error.field.map { ["field": .string($0)] } ?? [:])
    case .invalidConfiguration: return localized(.configError, locale, details: reason)
    case .notFound, .internalError: return localized(.internal, locale)
    }
  }

  package func localized(_ kind: ErrorKind, _ locale: MessageLocale, details: JSONObject = [:]) -> RPCError {
    RPCError(kind, ErrorMessages.text(kind, locale), details: details)
  }

  func tooManyInFlight(locale: MessageLocale) -> RPCError {
    localized(.rateLimited, locale, details: ["reason": "too_many_in_flight"])
  }
}
