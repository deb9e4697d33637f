import AuthProtocol
import AuthValidation

/// The one place where any Swift error becomes a JSON-RPC error object.
///
/// Domain modules throw their own error types; this switches over them so that adding a
/// case forces a mapping decision here. Anything unknown is `internal` with a generic text:
/// the cause goes to the diagnostics log, never to the host.
package struct ErrorTranslator: Sendable {
  /// Where causes of internal errors are reported (stderr, redacted by the caller's types).
  private let report: @Sendable (String) -> Void

  package init(report: @escaping @Sendable (String) -> Void = { _ in }) { self.report = report }

  package func translate(_ error: any Error, locale: MessageLocale) -> RPCError {
    switch error {
    case let error as RPCError:
      return error
    case is CancellationError:
      return localized(.cancelled, locale)
    default:
      report("internal error: \(type(of: error))")
      return localized(.internal, locale)
    }
  }

  package func localized(_ kind: ErrorKind, _ locale: MessageLocale, details: AuthJSON.JSONObject = [:]) -> RPCError {
    RPCError(kind, ErrorMessages.text(kind, locale), details: details)
  }

  func tooManyInFlight(locale: MessageLocale) -> RPCError {
    localized(.rateLimited, locale, details: ["reason": "too_many_in_flight"])
  }
}

import AuthJSON
