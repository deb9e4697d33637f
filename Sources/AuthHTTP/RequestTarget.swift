#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A request URL that passed the transport rules: absolute http(s), a host, no credentials, and
/// HTTPS unless the host is loopback (PRODUCT §6). Built before any I/O, before libcurl is even loaded.
package struct RequestTarget: Sendable, Equatable {
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
    if scheme == "http", !Self.isLoopback(authority.host) {
      throw HTTPError(.insecureURL, "http:// to non-loopback host \(authority.host)")
    }
    url = text
    self.reference = reference
    hostInURL = authority.hostInURL
    origin = Origin(scheme: scheme, host: authority.host, port: authority.port ?? (scheme == "https" ? 443 : 80))
    path = reference.path.isEmpty ? "/" : reference.path
  }

  /// `host:port/path`, for log lines.
  package var logName: String { "\(hostInURL):\(origin.port)\(path)" }

  /// `location` resolved against this URL (RFC 3986 §5.2), as a target of its own.
  package func resolving(_ location: String) throws(HTTPError) -> RequestTarget {
    guard let relative = URLReference(location) else { throw HTTPError(.redirectRefused, "unusable Location") }
    return try RequestTarget(relative.resolved(against: reference).text)
  }

  /// 127.0.0.0/8, ::1 and `localhost`. Only canonical spellings count: anything else (`127.1`,
  /// `0x7f.0.0.1`) is treated as remote, which errs towards requiring TLS.
  package static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" { return true }
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    var v4 = in_addr()
    if inet_pton(AF_INET, bare, &v4) == 1 {
      return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, bare, &v6) == 1 {
      return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
    return false
  }
}
