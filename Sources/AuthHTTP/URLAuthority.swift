#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The authority of a URL (RFC 3986 §3.2): `[userinfo@]host[:port]`.
///
/// Host names are held to letters, digits, `-`, `.` and `_`: RFC 3986 also allows sub-delimiters and
/// percent escapes there, which no auth server needs and which resolvers and libcurl read differently.
/// An IP literal must be a plain IPv6 address (no zone, no IPvFuture).
struct URLAuthority: Sendable, Equatable {
  /// As written; nil when there is no `@`.
  let userInfo: String?
  /// Lower-cased, without the brackets of an IPv6 literal; may be empty.
  let host: String
  let isIPv6: Bool
  /// Nil when absent or empty; otherwise 1...65535.
  let port: Int?

  init?(_ text: String) {
    var rest = Substring(text)
    if let at = rest.firstIndex(of: "@") {
      userInfo = String(rest[..<at])
      rest = rest[rest.index(after: at)...]
      // A second `@` would make "which part is the host" depend on the parser.
      guard !rest.contains("@") else { return nil }
    } else {
      userInfo = nil
    }
    let portText: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { return nil }
      let literal = String(rest[rest.index(after: rest.startIndex)..<close]).lowercased()
      var address = in6_addr()
      guard inet_pton(AF_INET6, literal, &address) == 1 else { return nil }
      host = literal
      isIPv6 = true
      let after = rest[rest.index(after: close)...]
      guard after.isEmpty || after.hasPrefix(":") else { return nil }
      portText = after.isEmpty ? nil : after.dropFirst()
    } else {
      let colon = rest.lastIndex(of: ":")
      let name = colon.map { rest[..<$0] } ?? rest
      guard
        name.utf8.allSatisfy({
          URLReference.isAlpha($0) || URLReference.isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            || $0 == UInt8(ascii: "_")
        })
      else { return nil }
      host = name.lowercased()
      isIPv6 = false
      portText = colon.map { rest[rest.index(after: $0)...] }
    }
    if let portText, !portText.isEmpty {
      guard portText.utf8.count <= 5, portText.utf8.allSatisfy(URLReference.isDigit), let port = Int(portText),
        (1...65535).contains(port)
      else { return nil }
      self.port = port
    } else {
      port = nil
    }
  }

  /// The host as it appears in a URL: an IPv6 literal in brackets.
  var hostInURL: String { isIPv6 ? "[\(host)]" : host }
}
