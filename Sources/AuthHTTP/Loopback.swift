#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one rule for which hosts may be reached over plain `http://`: traffic to them never leaves the machine,
/// so TLS adds nothing there, while anywhere else a password or token would cross the network in clear.
///
/// Config decoding, the HTTP client and OAuth2 discovery all ask this, so a URL the config accepts is a URL the
/// client will send to.
package enum Loopback {
  /// `localhost`, an address in 127.0.0.0/8 in dotted decimal, or ::1 in any IPv6 spelling (`::1`,
  /// `0:0:0:0:0:0:0:1`, `::0001`, …), with or without the brackets of a URL; any case. Other spellings of an
  /// IPv4 address (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`) count as remote: resolvers read them differently, and
  /// treating them as remote errs towards requiring TLS.
  package static func isLoopback(host: String) -> Bool {
    let lowered = host.lowercased()
    if lowered == "localhost" { return true }
    let bare = lowered.hasPrefix("[") && lowered.hasSuffix("]") ? String(lowered.dropFirst().dropLast()) : lowered
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
