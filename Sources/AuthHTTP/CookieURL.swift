#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The parts of a URL that cookie rules look at (RFC 6265 §5.1).
struct CookieURL {
  let secure: Bool
  /// Lower-case, without IPv6 brackets.
  let host: String
  /// The percent-encoded path, `/` when empty.
  let path: String

  init?(_ text: String) {
    guard let reference = URLReference(text), let scheme = reference.scheme?.lowercased(),
      scheme == "https" || scheme == "http", let authority = reference.authority.flatMap(URLAuthority.init),
      !authority.host.isEmpty
    else { return nil }
    secure = scheme == "https"
    host = authority.host
    path = reference.path.isEmpty ? "/" : reference.path
  }

  /// §5.1.4: the directory of the request path, the default `Path` of a cookie.
  var defaultPath: String {
    guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }

  var isIPAddress: Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  /// §5.1.3: the host is the domain, or a name under it (never for an IP address).
  func domainMatches(_ domain: String) -> Bool {
    host == domain || (!isIPAddress && host.hasSuffix("." + domain))
  }

  /// §5.1.4: the cookie path is the request path, or a directory prefix of it.
  func pathMatches(_ cookiePath: String) -> Bool {
    guard path.hasPrefix(cookiePath) else { return false }
    return path.count == cookiePath.count || cookiePath.hasSuffix("/")
      || path[path.index(path.startIndex, offsetBy: cookiePath.count)] == "/"
  }
}
