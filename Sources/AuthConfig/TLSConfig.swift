/// A remote profile's TLS trust settings, the `tls` object of the profile:
///
/// ```json
/// "tls": {"caFile": "/etc/auth-sidecar/corp-ca.pem",
///         "pinnedPublicKey": "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="}
/// ```
///
/// Certificate and host name verification are always on; these only change what is trusted.
package struct TLSConfig: Sendable, Equatable {
  /// Absolute path of a PEM bundle of CA certificates that replaces the system store for this profile.
  package let caFile: String?
  /// libcurl's pin format: `sha256//` and the base64 SHA-256 of the server key's SubjectPublicKeyInfo, several
  /// joined with `;`.
  package let pinnedPublicKey: String?

  package static let none = TLSConfig()

  package init(caFile: String? = nil, pinnedPublicKey: String? = nil) {
    self.caFile = caFile
    self.pinnedPublicKey = pinnedPublicKey
  }

  /// Whether `text` is one or more `sha256//<44 base64 characters>` joined with `;`.
  package static func isValidPin(_ text: String) -> Bool {
    let base64 = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    return text.split(separator: ";", omittingEmptySubsequences: false).allSatisfy { pin in
      guard pin.hasPrefix("sha256//") else { return false }
      let digest = pin.dropFirst("sha256//".count).utf8
      // 32 bytes: 43 base64 characters and one `=`.
      return digest.count == 44 && digest.last == UInt8(ascii: "=") && digest.dropLast().allSatisfy(base64.contains)
    }
  }
}
