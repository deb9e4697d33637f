/// A profile's TLS trust settings. Verification of the certificate chain and the host name is always on;
/// these only change what is trusted.
package struct TLSSettings: Sendable, Hashable {
  /// A PEM bundle of CA certificates that **replaces** the system store for the profile: a private CA's
  /// server is then trusted, and a server with a publicly trusted certificate is not, unless the bundle holds
  /// its CA too.
  package var caFile: String?
  /// The server key's pin in libcurl's format, `sha256//<base64 of the SHA-256 of its SubjectPublicKeyInfo>`,
  /// several joined with `;`. A server presenting any other key fails the handshake, before anything is sent.
  package var pinnedPublicKey: String?

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
