#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Which requests go through a proxy, decided here and handed to libcurl explicitly, so that libcurl never
/// reads a proxy variable itself.
///
/// Only `https://` requests to a host that is not loopback use a proxy, `https_proxy` (or `HTTPS_PROXY`), as a
/// CONNECT tunnel: TLS runs end to end with the server, verified as without a proxy, and the proxy sees only
/// the host and port. Plain `http://` (allowed to loopback only) is never proxied, so `http_proxy` is ignored:
/// a login to a local server must not travel in clear through another machine. `no_proxy` (or `NO_PROXY`)
/// lists hosts that go direct: names (`example.com` also covers its subdomains, a leading `.` is ignored),
/// IP addresses, IPv4/IPv6 CIDR ranges, or `*` for every host.
package struct ProxySettings: Sendable, Equatable {
  package var httpsProxy: String?
  package var noProxy: [String]

  package init(httpsProxy: String? = nil, noProxy: String? = nil) {
    self.httpsProxy = httpsProxy.flatMap { $0.isEmpty ? nil : $0 }
    self.noProxy = (noProxy ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map {
      var entry = $0.lowercased()
      if entry.hasPrefix(".") { entry.removeFirst() }
      if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
        entry = String(entry[entry.index(after: entry.startIndex)..<close]) + entry[entry.index(after: close)...]
      }
      return entry
    }.filter { !$0.isEmpty }
  }

  /// The process's variables, lower-case spelling first as curl and most tools read them.
  package static func environment() -> ProxySettings {
    func variable(_ names: String...) -> String? {
      names.lazy.compactMap { getenv($0).map { String(cString: $0) } }.first
    }
    return ProxySettings(httpsProxy: variable("https_proxy", "HTTPS_PROXY"), noProxy: variable("no_proxy", "NO_PROXY"))
  }

  /// The proxy URL for a request to `origin`, or nil to connect directly.
  package func proxy(for origin: RequestTarget.Origin) -> String? {
    guard let httpsProxy, origin.scheme == "https", !Loopback.isLoopback(host: origin.host),
      !noProxy.contains(where: { Self.matches($0, host: origin.host) })
    else { return nil }
    return httpsProxy
  }

  static func matches(_ entry: String, host: String) -> Bool {
    if entry == "*" || entry == host || host.hasSuffix("." + entry) { return true }
    guard let slash = entry.firstIndex(of: "/"), let bits = Int(entry[entry.index(after: slash)...]),
      let network = IPAddress(String(entry[..<slash])), let address = IPAddress(host),
      network.bytes.count == address.bytes.count, (0...network.bytes.count * 8).contains(bits)
    else { return false }
    for index in 0..<network.bytes.count {
      let maskBits = min(8, max(0, bits - index * 8))
      let mask: UInt8 = maskBits == 0 ? 0 : ~UInt8(0) << (8 - maskBits)
      if network.bytes[index] & mask != address.bytes[index] & mask { return false }
    }
    return true
  }

  /// The bytes of an IPv4 or IPv6 address in text form.
  private struct IPAddress {
    let bytes: [UInt8]

    init?(_ text: String) {
      var v4 = in_addr()
      var v6 = in6_addr()
      if inet_pton(AF_INET, text, &v4) == 1 {
        bytes = withUnsafeBytes(of: &v4) { Array($0) }
      } else if inet_pton(AF_INET6, text, &v6) == 1 {
        bytes = withUnsafeBytes(of: &v6) { Array($0) }
      } else {
        return nil
      }
    }
  }
}
