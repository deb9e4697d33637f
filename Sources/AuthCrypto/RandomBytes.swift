internal import COpenSSL

/// Bytes from libcrypto's CSPRNG.
package enum RandomBytes {
  /// `count` bytes from `RAND_bytes`, for public values: salts, nonces, identifiers.
  /// For keys and tokens that must stay secret, use `SecretBytes(randomCount:)`.
  /// - Throws: `CryptoError` if the generator fails or `count` is negative.
  package static func generate(_ count: Int) throws -> [UInt8] {
    guard count >= 0 else { throw CryptoError.invalidParameters("random byte count must not be negative") }
    return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      try fill(buffer, forSecret: false)
      initialized = count
    }
  }

  /// Fills `buffer` in chunks, because the C API counts in `Int32`.
  /// `forSecret` picks `RAND_priv_bytes`, whose separate DRBG keeps secret output apart from public output.
  static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, forSecret: Bool) throws {
    try LibCrypto.require()
    guard var next = buffer.baseAddress else { return }
    var remaining = buffer.count
    while remaining > 0 {
      let chunk = min(remaining, Int(Int32.max))
      let status = forSecret ? RAND_priv_bytes(next, Int32(chunk)) : RAND_bytes(next, Int32(chunk))
      guard status == 1 else { throw CryptoError.randomUnavailable() }
      next += chunk
      remaining -= chunk
    }
  }
}
