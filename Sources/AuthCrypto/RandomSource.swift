import Synchronization

/// Where tokens, ids and signing keys get their randomness.
///
/// Production uses the operating system's CSPRNG through OpenSSL. Test mode swaps in a
/// seeded, deterministic source so that golden transcripts of whole sessions are byte-stable;
/// it is refused unless explicitly enabled (see the executable's test mode).
package protocol RandomSource: Sendable {
  /// - Throws: `CryptoError` when no randomness can be had.
  func bytes(_ count: Int) throws -> [UInt8]
}

extension RandomSource {
  package func secret(_ count: Int) throws -> SecretBytes { SecretBytes(try bytes(count)) }
}

/// OpenSSL's CSPRNG (`RAND_bytes`).
package struct SystemRandomSource: RandomSource {
  package init() {}
  package func bytes(_ count: Int) throws -> [UInt8] { try RandomBytes.generate(count) }
}

/// HMAC-SHA256 in counter mode keyed by a seed: deterministic, for test mode only.
///
/// - Important: never used outside test mode; its output is predictable by design.
package final class SeededRandomSource: RandomSource {
  private let seed: UInt64
  private let counter = Mutex<UInt64>(0)

  /// Hashes nothing yet: the sidecar makes its source at start, and hashing would load libcrypto there.
  package init(seed: UInt64) { self.seed = seed }

  /// Derived on each call (one SHA-256): cheaper to keep than a lock-guarded cache, and test mode only.
  private func key() -> SecretBytes {
    var seedBytes: [UInt8] = Array("auth-sidecar test mode seed".utf8)
    for shift in stride(from: 56, through: 0, by: -8) { seedBytes.append(UInt8(truncatingIfNeeded: seed >> UInt64(shift))) }
    return SecretBytes(SHA256.hash(seedBytes))
  }

  package func bytes(_ count: Int) throws -> [UInt8] {
    try LibCrypto.require()
    let key = key()
    var out: [UInt8] = []
    out.reserveCapacity(count + 32)
    while out.count < count {
      let block = counter.withLock { value -> UInt64 in
        value += 1
        return value
      }
      var message: [UInt8] = []
      for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: block >> UInt64(shift))) }
      out.append(contentsOf: HMACSHA256.authenticate(message, key: key))
    }
    return Array(out.prefix(count))
  }
}
