internal import COpenSSL

/// AES-256-GCM with a fresh random 96-bit nonce per message and a 128-bit tag.
///
/// Sealed layout: `nonce (12) ‖ ciphertext ‖ tag (16)`. Random nonces keep the collision risk negligible
/// below about 2^32 messages per key (NIST SP 800-38D §8.3); rotate keys long before that.
package enum AESGCM {
  package static let keyByteCount = 32
  package static let nonceByteCount = 12
  package static let tagByteCount = 16

  /// - Throws: `CryptoError` for a key that is not 32 bytes or a failing random generator.
  package static func seal(_ plaintext: [UInt8], key: SecretBytes, associatedData: [UInt8]) throws -> [UInt8] {
    try plaintext.withUnsafeBytes {
      try seal($0, key: key, nonce: RandomBytes.generate(nonceByteCount), associatedData: associatedData)
    }
  }

  /// Seals a secret without copying it out of its wiped buffer first.
  package static func seal(_ secret: SecretBytes, key: SecretBytes, associatedData: [UInt8]) throws -> [UInt8] {
    try secret.withUnsafeBytes {
      try seal($0, key: key, nonce: RandomBytes.generate(nonceByteCount), associatedData: associatedData)
    }
  }

  /// - Throws: `CryptoError` with `isAuthenticationFailure` when the nonce, ciphertext, tag or associated data
  ///   was changed or the key is wrong; `isMalformedInput` when `sealed` is too short to hold a nonce and tag.
  package static func open(_ sealed: [UInt8], key: SecretBytes, associatedData: [UInt8]) throws -> [UInt8] {
    let count = try plaintextCount(sealed)
    return try [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
      // Only `count` bytes: the buffer handed out may be larger than the capacity asked for.
      let plaintext = UnsafeMutableBufferPointer(rebasing: storage[..<count])
      try open(sealed, key: key, associatedData: associatedData, into: plaintext)
      initialized = count
    }
  }

  /// Like `open`, but decrypts straight into a `SecretBytes`, so no unwiped copy of the plaintext exists.
  package static func openSecret(_ sealed: [UInt8], key: SecretBytes, associatedData: [UInt8]) throws -> SecretBytes {
    try SecretBytes(count: try plaintextCount(sealed)) { plaintext in
      try open(sealed, key: key, associatedData: associatedData, into: plaintext)
    }
  }

  /// Fixed-nonce sealing, internal so only known-answer tests reach it: a nonce reused under one key
  /// reveals the XOR of the plaintexts and lets an attacker forge tags.
  static func seal(_ plaintext: [UInt8], key: SecretBytes, nonce: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
    try plaintext.withUnsafeBytes { try seal($0, key: key, nonce: nonce, associatedData: associatedData) }
  }

  private static func seal(
    _ plaintext: UnsafeRawBufferPointer,
    key: SecretBytes,
    nonce: [UInt8],
    associatedData: [UInt8]
  ) throws -> [UInt8] {
    try checkKey(key)
    guard nonce.count == nonceByteCount else { throw CryptoError.invalidParameters("AES-GCM nonce must be 12 bytes") }
    let context = try CipherContext(encrypting: true, key: key, nonce: nonce)
    return try nonce.withUnsafeBytes { try seal(plaintext, on: context, nonce: $0, associatedData: associatedData) }
  }

  /// The sealed box of `plaintext` on an encrypting `context` already started with `nonce`.
  static func seal(
    _ plaintext: UnsafeRawBufferPointer, on context: CipherContext, nonce: UnsafeRawBufferPointer,
    associatedData: [UInt8]
  ) throws -> [UInt8] {
    try context.authenticateOnly(associatedData)
    var sealed = [UInt8](repeating: 0, count: nonceByteCount + plaintext.count + tagByteCount)
    try sealed.withUnsafeMutableBufferPointer { sealed in
      UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: sealed[..<nonceByteCount])).copyMemory(
        from: nonce)
      let ciphertextEnd = nonceByteCount + plaintext.count
      try context.update(plaintext, into: UnsafeMutableBufferPointer(rebasing: sealed[nonceByteCount..<ciphertextEnd]))
      guard context.finish() else { throw CryptoError.openSSLFailure("AES-256-GCM final") }
      try context.tag(into: UnsafeMutableBufferPointer(rebasing: sealed[ciphertextEnd...]))
    }
    return sealed
  }

  static func plaintextCount(_ sealed: [UInt8]) throws -> Int {
    guard sealed.count >= nonceByteCount + tagByteCount else {
      throw CryptoError.malformedInput("AES-GCM sealed box shorter than nonce and tag")
    }
    return sealed.count - nonceByteCount - tagByteCount
  }

  /// Decrypts into `plaintext` (exactly the ciphertext's size) and wipes it again unless the tag verifies:
  /// unauthenticated plaintext must never outlive a failure.
  private static func open(
    _ sealed: [UInt8],
    key: SecretBytes,
    associatedData: [UInt8],
    into plaintext: UnsafeMutableBufferPointer<UInt8>
  ) throws {
    try checkKey(key)
    let context = try CipherContext(encrypting: false, key: key, nonce: Array(sealed[..<nonceByteCount]))
    try open(sealed, on: context, associatedData: associatedData, into: plaintext)
  }

  /// Decrypts `sealed` on a decrypting `context` already started with its nonce, as `open(_:key:associatedData:into:)`.
  static func open(
    _ sealed: [UInt8], on context: CipherContext, associatedData: [UInt8], into plaintext: UnsafeMutableBufferPointer<UInt8>
  ) throws {
    let ciphertextEnd = nonceByteCount + plaintext.count
    try context.authenticateOnly(associatedData)
    try context.setExpectedTag(Array(sealed[ciphertextEnd...]))
    do {
      try sealed.withUnsafeBytes { sealed in
        try context.update(UnsafeRawBufferPointer(rebasing: sealed[nonceByteCount..<ciphertextEnd]), into: plaintext)
      }
      guard context.finish() else { throw CryptoError.authenticationFailed("AES-GCM tag mismatch") }
    } catch {
      if let base = plaintext.baseAddress { auth_secure_wipe(base, plaintext.count) }
      throw error
    }
  }

  static func checkKey(_ key: SecretBytes) throws {
    guard key.count == keyByteCount else { throw CryptoError.invalidKey("AES-256-GCM key must be 32 bytes") }
  }
}
