import AuthHTTP

/// The transport rule for URLs a discovery document hands us: the HTTP client's own (`RequestTarget`, so
/// `https://`, or `http://` to a `Loopback` host; no user info), and no fragment. The HTTP client enforces it
/// too, but a bad discovered endpoint is the server's mistake (`bad_response`), not a configuration the user can
/// fix, so it is refused when the document is read.
enum OAuth2URL {
  static func isAcceptable(_ text: String) -> Bool {
    guard let target = try? RequestTarget(text) else { return false }
    return !target.hasFragment
  }

  /// OIDC Discovery §4.1: a terminating `/` of the issuer is removed before the well-known path is appended.
  static func discoveryURL(issuer: String) -> String {
    var base = Substring(issuer)
    while base.hasSuffix("/") { base = base.dropLast() }
    return base + "/.well-known/openid-configuration"
  }
}
