/// Why a request produced no response. A final HTTP status — 401, 429, 500, 503 after retries — is
/// not an error: it comes back as an `HTTPResponse` for the provider to interpret.
package struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Code: Sendable, Equatable, CaseIterable {
    /// Not an absolute http(s) URL with a host, or it carries a user name or password.
    case invalidURL
    /// `http://` to a host that is not loopback; refused before any I/O.
    case insecureURL
    /// A method or header that would not survive the trip (not a token, CR/LF in a value), or a GET
    /// with a body.
    case invalidRequest
    /// Refused, unreachable, reset, DNS failure: no usable answer came back.
    case networkUnavailable
    /// The connect/idle bound or the total deadline passed.
    case timeout
    /// Any certificate or handshake failure. Verification is always on.
    case tls
    /// The body passed `HTTPPolicy.maxResponseBytes`; the transfer was stopped there.
    case responseTooLarge
    /// A redirect to another origin, one past the allowed count, or one with an unusable `Location`.
    case redirectRefused
    /// The calling Swift task was cancelled; the transfer was stopped.
    case cancelled
    /// `CookieJar(serialized:)` was given bytes it did not write.
    case corruptCookieJar
    /// libcurl is not installed (or too old) on this machine; the detail names it and the fix.
    case transportUnavailable
  }

  package let code: Code
  /// For the diagnostics log only: never a query string, header, cookie or body.
  package let detail: String

  package init(_ code: Code, _ detail: String) {
    self.code = code
    self.detail = detail
  }

  package var description: String { "HTTPError.\(code): \(detail)" }
}
