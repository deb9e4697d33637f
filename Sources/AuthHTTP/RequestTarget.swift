/// A request URL that passed the transport rules: absolute http(s), a host, no credentials, and HTTPS unless the
/// host is loopback (`Loopback`), since a token sent in clear to any other host crosses the network. Built before
/// any I/O — by config decoding for every configured URL, and again before each request, before libcurl is even
/// loaded.
///
/// A class: a target travels by reference through every layer of a request (exchange, attempt, response), where a
/// struct of its seven strings was copied, and its strings retained and released, at each step.
package final class RequestTarget: Sendable, Equatable {
  package struct Origin: Sendable, Equatable {
    package let scheme: String
    /// Lower-cased; an IPv6 address without brackets.
    package let host: String
    package let port: Int

    package init(scheme: String, host: String, port: Int) {
      self.scheme = scheme
      self.host = host
      self.port = port
    }
  }

  /// The URL handed to the transport: the text as given, or a resolved redirect put back together.
  package let url: String
  package let origin: Origin
  /// The path without the query, which may carry codes and tokens: the only part of the URL logged.
  package let path: String
  private let reference: URLReference
  private let hostInURL: String

  /// - Throws: `HTTPError` `invalidURL` or `insecureURL`.
  package init(_ text: String) throws(HTTPError) {
    guard let reference = URLReference(text), let scheme = reference.scheme?.lowercased(),
      scheme == "https" || scheme == "http", let authority = reference.authority.flatMap(URLAuthority.init),
      !authority.host.isEmpty
    else { throw HTTPError(.invalidURL, "not an absolute http(s) URL with a host") }
    // Credentials in a URL travel into logs and error texts; they belong in a header.
    guard authority.userInfo == nil else { throw HTTPError(.invalidURL, "URL carries a user name or password") }
    if scheme == "http", !Loopback.isLoopback(host: authority.host) {
      throw HTTPError(.insecureURL, "http:// to non-loopback host \(authority.host)")
    }
    url = text
    self.reference = reference
    hostInURL = authority.hostInURL
    origin = Origin(scheme: scheme, host: authority.host, port: authority.port ?? (scheme == "https" ? 443 : 80))
    path = reference.path.isEmpty ? "/" : reference.path
  }

  package static func == (lhs: RequestTarget, rhs: RequestTarget) -> Bool {
    lhs === rhs
      || (lhs.url == rhs.url && lhs.origin == rhs.origin && lhs.path == rhs.path && lhs.reference == rhs.reference
        && lhs.hostInURL == rhs.hostInURL)
  }

  /// The authority as written (`host[:port]`), for callers that rebuild the URL.
  package var authority: String { reference.authority ?? "" }
  package var hasQuery: Bool { reference.query != nil }
  package var hasFragment: Bool { reference.fragment != nil }

  /// `host:port/path`, for log lines.
  package var logName: String { "\(hostInURL):\(origin.port)\(path)" }

  /// `location` resolved against this URL (RFC 3986 §5.2), as a target of its own.
  package func resolving(_ location: String) throws(HTTPError) -> RequestTarget {
    guard let relative = URLReference(location) else { throw HTTPError(.redirectRefused, "unusable Location") }
    return try RequestTarget(relative.resolved(against: reference).text)
  }
}
