internal import COpenSSL

/// SHA-256 (FIPS 180-4) through `EVP_Digest`.
package enum SHA256 {
  package static let byteCount = 32

  package static func hash(_ data: [UInt8]) -> [UInt8] {
    data.withUnsafeBytes { hash($0) }
  }

  /// Hashes a secret in place (a refresh token before it is stored, say) without an unwiped copy.
  package static func hash(_ secret: SecretBytes) -> [UInt8] {
    secret.withUnsafeBytes { hash($0) }
  }

  static func hash(_ data: UnsafeRawBufferPointer) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: byteCount) { digest, initialized in
      var length: UInt32 = 0
      let status = data.withNonNullBytes { bytes, count in
        EVP_Digest(bytes, count, digest.baseAddress, &length, FetchedAlgorithm.sha256.pointer, nil)
      }
      guard status == 1, length == byteCount else { OpenSSLErrorQueue.trap("EVP_Digest(SHA256)") }
      initialized = byteCount
    }
  }
}
