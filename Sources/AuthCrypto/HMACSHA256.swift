internal import COpenSSL

/// HMAC-SHA-256 (RFC 2104) through libcrypto's EVP_MAC (`EVP_Q_mac`).
package enum HMACSHA256 {
  package static let byteCount = 32

  package static func authenticate(_ message: [UInt8], key: SecretBytes) -> [UInt8] {
    message.withUnsafeBytes { message in
      key.withUnsafeBytes { key in authenticate(message, key: key) }
    }
  }

  /// Recomputes the code and compares in constant time, so a forger learns nothing from the timing.
  package static func isValidAuthenticationCode(
    _ code: [UInt8],
    authenticating message: [UInt8],
    key: SecretBytes
  ) -> Bool {
    ConstantTime.equals(authenticate(message, key: key), code)
  }

  static func authenticate(_ message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) -> [UInt8] {
    HMACDigest.authenticate(message, key: key, digest: "SHA256", byteCount: byteCount)
  }
}

/// One HMAC through libcrypto's EVP_MAC (`EVP_Q_mac`), for the digest named.
enum HMACDigest {
  static func authenticate(
    _ message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, digest: String, byteCount: Int
  ) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: byteCount) { mac, initialized in
      var length = 0
      let result = key.withNonNullBytes { keyBytes, keyCount in
        message.withNonNullBytes { bytes, count in
          EVP_Q_mac(
            nil, "HMAC", nil, digest, nil, keyBytes, keyCount, bytes, count, mac.baseAddress, byteCount, &length)
        }
      }
      guard result != nil, length == byteCount else { OpenSSLErrorQueue.trap("EVP_Q_mac(HMAC-\(digest))") }
      initialized = byteCount
    }
  }
}
