import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// AES-256-GCM under one long-lived key (the store key), in the format of `AESGCM` and interchangeable with it.
///
/// Setting a key up costs far more than sealing a token with it (the cipher fetch, the AES key schedule, the GHASH
/// key), and a login seals and opens several columns; so one encrypting and one decrypting context keep the key
/// set up for the key's lifetime, and each value only restarts one with its nonce. Nonces are drawn from the
/// CSPRNG sixteen at a time instead of one call per value; every one is used once, and a pool inherited by a
/// forked child is thrown away rather than reused.
package final class AESGCMKey: Sendable {
  private let key: SecretBytes
  private let state = Mutex(State())

  private struct State: ~Copyable {
    var encrypting: CipherContext?
    var decrypting: CipherContext?
    var nonces = NoncePool()
  }

  /// A key that is not 32 bytes is refused (`CryptoError.invalidKey`) by the first seal or open, as `AESGCM` does.
  package init(_ key: SecretBytes) {
    self.key = key
  }

  private func context(_ kept: inout CipherContext?, encrypting: Bool) throws -> CipherContext {
    if let kept { return kept }
    try AESGCM.checkKey(key)
    let context = try CipherContext(encrypting: encrypting, key: key, nonce: nil)
    kept = context
    return context
  }

  /// `nonce ‖ ciphertext ‖ tag` of `plaintext`, as `AESGCM.seal`.
  package func seal(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8]) throws -> [UInt8] {
    try state.withLock { state in
      let context = try context(&state.encrypting, encrypting: true)
      return try state.nonces.withNext { nonce in
        try context.restart(nonce: nonce)
        return try AESGCM.seal(plaintext, on: context, nonce: nonce, associatedData: associatedData)
      }
    }
  }

  package func seal(_ plaintext: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
    try plaintext.withUnsafeBytes { try seal($0, associatedData: associatedData) }
  }

  /// The plaintext of a box `seal` or `AESGCM.seal` made under this key.
  /// - Throws: as `AESGCM.open`.
  package func open(_ sealed: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
    let count = try AESGCM.plaintextCount(sealed)
    return try [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
      try open(sealed, associatedData: associatedData, into: UnsafeMutableBufferPointer(rebasing: storage[..<count]))
      initialized = count
    }
  }

  /// Like `open`, straight into a `SecretBytes`.
  package func openSecret(_ sealed: [UInt8], associatedData: [UInt8]) throws -> SecretBytes {
    try SecretBytes(count: try AESGCM.plaintextCount(sealed)) { plaintext in
      try open(sealed, associatedData: associatedData, into: plaintext)
    }
  }

  private func open(_ sealed: [UInt8], associatedData: [UInt8], into plaintext: UnsafeMutableBufferPointer<UInt8>)
    throws
  {
    try state.withLock { state in
      let context = try context(&state.decrypting, encrypting: false)
      try sealed.withUnsafeBytes { try context.restart(nonce: UnsafeRawBufferPointer(rebasing: $0[..<AESGCM.nonceByteCount])) }
      try AESGCM.open(sealed, on: context, associatedData: associatedData, into: plaintext)
    }
  }
}

/// Random 96-bit nonces drawn from the CSPRNG in batches, each handed out once.
struct NoncePool: ~Copyable {
  static let batch = 16
  private var bytes = [UInt8](repeating: 0, count: batch * AESGCM.nonceByteCount)
  private var next = batch
  /// The process the batch was drawn in: a child forked with this memory must not hand out the parent's nonces.
  private var owner: pid_t = 0

  mutating func withNext<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
    let pid = getpid()
    if next == Self.batch || owner != pid {
      try bytes.withUnsafeMutableBufferPointer { try RandomBytes.fill($0, forSecret: false) }
      next = 0
      owner = pid
    }
    let start = next * AESGCM.nonceByteCount
    // Spent before use: a body that throws does not give the nonce back.
    next += 1
    return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<start + AESGCM.nonceByteCount])) }
  }
}
