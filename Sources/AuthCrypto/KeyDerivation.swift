internal import COpenSSL

/// Password-based key derivation: PBKDF2-HMAC-SHA-256 (RFC 8018) and scrypt (RFC 7914), both in libcrypto.
///
/// Both are deliberately slow (100+ ms at password-storage settings): run them off the request path.
package enum KeyDerivation {
  /// scrypt needs about 128·r·(N + p) bytes. This cap (256 MiB) admits OWASP's N=2^17, r=8 (128 MiB) and
  /// refuses the gigabytes a corrupted or hostile stored hash could otherwise ask for.
  package static let scryptMemoryLimit = 256 << 20

  /// - Throws: `CryptoError` for out-of-range parameters or a libcrypto failure.
  package static func pbkdf2SHA256(
    password: SecretBytes,
    salt: [UInt8],
    iterations: Int,
    keyByteCount: Int
  ) throws -> SecretBytes {
    try password.withUnsafeBytes { password in
      try SecretBytes(count: keyByteCount) { key in
        try pbkdf2SHA256(password: password, salt: salt, iterations: iterations, into: key)
      }
    }
  }

  /// - Throws: `CryptoError` for out-of-range parameters (including memory over `scryptMemoryLimit`)
  ///   or a libcrypto failure.
  package static func scrypt(
    password: SecretBytes,
    salt: [UInt8],
    logN: Int,
    r: Int,
    p: Int,
    keyByteCount: Int
  ) throws -> SecretBytes {
    try password.withUnsafeBytes { password in
      try SecretBytes(count: keyByteCount) { key in
        try scrypt(password: password, salt: salt, logN: logN, r: r, p: p, into: key)
      }
    }
  }

  static func pbkdf2SHA256(
    password: UnsafeRawBufferPointer,
    salt: [UInt8],
    iterations: Int,
    into key: UnsafeMutableBufferPointer<UInt8>
  ) throws {
    try LibCrypto.require()
    guard let cIterations = Int32(exactly: iterations), cIterations >= 1,
      let cPasswordCount = Int32(exactly: password.count), let cSaltCount = Int32(exactly: salt.count),
      let cKeyCount = Int32(exactly: key.count), cKeyCount >= 1
    else { throw CryptoError.invalidParameters("PBKDF2 parameters out of range") }
    // PKCS5_PBKDF2_HMAC, unlike a bare EVP_KDF fetch, skips SP 800-132's minimums, which RFC vectors need.
    let status = password.withNonNullBytes { passwordBytes, _ in
      salt.withNonNullBytes { saltBytes, _ in
        passwordBytes.withMemoryRebound(to: CChar.self, capacity: password.count) { passwordChars in
          PKCS5_PBKDF2_HMAC(
            passwordChars, cPasswordCount, saltBytes, cSaltCount, cIterations,
            FetchedAlgorithm.sha256.pointer, cKeyCount, key.baseAddress)
        }
      }
    }
    guard status == 1 else { throw CryptoError.openSSLFailure("PBKDF2-HMAC-SHA256") }
  }

  static func scrypt(
    password: UnsafeRawBufferPointer,
    salt: [UInt8],
    logN: Int,
    r: Int,
    p: Int,
    into key: UnsafeMutableBufferPointer<UInt8>
  ) throws {
    try LibCrypto.require()
    let (rTimesP, rTimesPOverflow) = r.multipliedReportingOverflow(by: p)
    // RFC 7914 §2: r·p < 2^30; N = 2^logN > 1.
    guard (1...62).contains(logN), r >= 1, p >= 1, !rTimesPOverflow, rTimesP < 1 << 30, !key.isEmpty else {
      throw CryptoError.invalidParameters("scrypt parameters out of range")
    }
    guard let memory = scryptMemory(logN: logN, r: r, p: p), memory <= scryptMemoryLimit else {
      throw CryptoError.invalidParameters("scrypt needs more than the \(scryptMemoryLimit >> 20) MiB limit")
    }
    let status = password.withNonNullBytes { passwordBytes, _ in
      salt.withNonNullBytes { saltBytes, _ in
        passwordBytes.withMemoryRebound(to: CChar.self, capacity: password.count) { passwordChars in
          EVP_PBE_scrypt(
            passwordChars, password.count, saltBytes, salt.count, 1 << UInt64(logN), UInt64(r), UInt64(p),
            UInt64(memory), key.baseAddress, key.count)
        }
      }
    }
    guard status == 1 else { throw CryptoError.openSSLFailure("scrypt") }
  }

  /// The bytes OpenSSL will allocate, by its own formula (128·r·p + 128·r·(N + 2)); `nil` on overflow.
  /// Callers have already bounded r·p below 2^30, so `128 * r` cannot overflow.
  private static func scryptMemory(logN: Int, r: Int, p: Int) -> Int? {
    let blockBytes = 128 * r
    let (scratch, scratchOverflow) = blockBytes.multipliedReportingOverflow(by: (1 << logN) + 2)
    let (lanes, lanesOverflow) = blockBytes.multipliedReportingOverflow(by: p)
    let (total, totalOverflow) = scratch.addingReportingOverflow(lanes)
    return scratchOverflow || lanesOverflow || totalOverflow ? nil : total
  }
}
