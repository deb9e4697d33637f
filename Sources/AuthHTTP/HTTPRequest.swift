/// One request as a provider describes it; `CurlHTTPClient` validates it before any I/O.
package struct HTTPRequest: Sendable, CustomStringConvertible {
  package enum RedirectPolicy: Sendable, Equatable {
    /// Never follow: a 3xx comes back as the response, so the caller can read its `Location` and
    /// `Set-Cookie` (a form login's 302, an authorization redirect).
    case refuse
    /// Follow up to `max` redirects that keep the scheme, host and port; any other redirect throws
    /// `redirectRefused`. Headers are re-sent unchanged, which is why the origin must not change.
    case followSameOrigin(max: Int)
  }

  package var method: HTTPMethod
  /// Absolute `https://` URL; `http://` only to a loopback host.
  package var url: String
  package var headers: [HTTPHeader]
  package var body: [UInt8]?
  package var redirects: RedirectPolicy
  /// May this be sent again after the server may already have processed it? Requests that never
  /// reached the server (refused, DNS) are retried regardless; a timeout, a reset, a 502 or a 504
  /// only when this is true. A refresh-token POST is not: a replayed rotation logs the user out.
  package var idempotent: Bool
  /// The caller's bound on the whole `send`, retries and redirects included; nil (or a longer one) leaves the
  /// client's own total timeout. A client answers `HTTPError.Code.timeout` once it passes: it is the client's
  /// own timer, so a caller needs no deadline race (a task group and a timer per request) of its own.
  package var timeout: Duration?

  /// - Parameter idempotent: nil takes it from the method (`HTTPMethod.isIdempotent`).
  package init(
    method: HTTPMethod = .get, url: String, headers: [HTTPHeader] = [], body: [UInt8]? = nil,
    redirects: RedirectPolicy = .refuse, idempotent: Bool? = nil, timeout: Duration? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.redirects = redirects
    self.idempotent = idempotent ?? method.isIdempotent
    self.timeout = timeout
  }

  /// Method and URL without query, fragment or user info: those, the headers and the body carry
  /// secrets, and this may be logged.
  package var description: String {
    var shown = String(url.prefix { $0 != "?" && $0 != "#" })
    if let scheme = shown.firstRange(of: "://") {
      let authority = shown[scheme.upperBound...].prefix { $0 != "/" }
      if let at = authority.lastIndex(of: "@") { shown.removeSubrange(scheme.upperBound...at) }
    }
    return "HTTPRequest(\(method) \(shown))"
  }
}
