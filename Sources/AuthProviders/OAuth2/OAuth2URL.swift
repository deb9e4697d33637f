#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The transport rule for URLs a discovery document hands us (PRODUCT §6): `https://`, or `http://` to a
/// loopback host; no user info or fragment. The HTTP client enforces it too, but a bad discovered endpoint is
/// the server's mistake (`bad_response`), not a configuration the user can fix.
enum OAuth2URL {
  static func isAcceptable(_ text: String) -> Bool {
    guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), !text.contains("#") else { return false }
    let lowered = text.lowercased()
    let secure = lowered.hasPrefix("https://")
    guard secure || lowered.hasPrefix("http://") else { return false }
    let authority = text.dropFirst(secure ? 8 : 7).prefix { $0 != "/" && $0 != "?" }
    guard !authority.isEmpty, !authority.contains("@") else { return false }
    if secure { return true }
    let host: Substring
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return false }
      host = authority[authority.index(after: authority.startIndex)..<close]
    } else {
      host = authority.prefix { $0 != ":" }
    }
    return isLoopback(String(host).lowercased())
  }

  /// 127.0.0.0/8, ::1 and `localhost`, in canonical spellings only (as `AuthHTTP` decides it).
  static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" { return true }
    var v4 = in_addr()
    if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, host, &v6) == 1 {
      return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
    return false
  }

  /// OIDC Discovery §4.1: a terminating `/` of the issuer is removed before the well-known path is appended.
  static func discoveryURL(issuer: String) -> String {
    var base = Substring(issuer)
    while base.hasSuffix("/") { base = base.dropLast() }
    return base + "/.well-known/openid-configuration"
  }
}
