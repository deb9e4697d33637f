internal import COpenSSL

/// Key material that owns its one buffer, wipes it when released (`explicit_bzero`, which needs no libcrypto: a
/// release happens anywhere), and never prints it.
///
/// Best effort only: copies the caller made before handing the bytes over (an `[UInt8]`, a `String`) are out
/// of reach. Keep those short-lived.
///
/// `@unchecked Sendable`: the buffer is written only inside `init` and wiped only in `deinit`; between the two
/// it is read-only, so concurrent readers need no lock.
package final class SecretBytes: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// At least one byte, so the base address is never nil even for an empty secret.
  private let storage: UnsafeMutableBufferPointer<UInt8>
  package let count: Int

  /// Copies `bytes`; the caller should drop its own copy as soon as it can.
  package convenience init(_ bytes: [UInt8]) {
    self.init(count: bytes.count) { _ = $0.update(fromContentsOf: bytes) }
  }

  /// `count` bytes from libcrypto's private DRBG (`RAND_priv_bytes`, the generator OpenSSL keeps for secrets).
  /// - Throws: `CryptoError` if the generator fails.
  package convenience init(randomCount: Int) throws {
    try self.init(count: randomCount) { buffer in
      try RandomBytes.fill(buffer, forSecret: true)
    }
  }

  /// Lets libcrypto write straight into the wiped buffer, so the secret never exists in an unmanaged array.
  init(count: Int, initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows {
    precondition(count >= 0, "SecretBytes count must not be negative")
    let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
    storage.initialize(repeating: 0)
    do {
      try body(UnsafeMutableBufferPointer(rebasing: storage[0..<count]))
    } catch {
      Self.wipe(storage)
      throw error
    }
    self.storage = storage
    self.count = count
  }

  deinit {
    Self.wipe(storage)
  }

  private static func wipe(_ storage: UnsafeMutableBufferPointer<UInt8>) {
    auth_secure_wipe(storage.baseAddress, storage.count)
    storage.deallocate()
  }

  /// The only way to read the bytes. Do not let the pointer escape the closure.
  package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: storage.baseAddress, count: count))
  }

  /// Constant-time comparison (`CRYPTO_memcmp`); see `ConstantTime.equals`.
  package func constantTimeEquals(_ other: SecretBytes) -> Bool {
    withUnsafeBytes { mine in other.withUnsafeBytes { ConstantTime.equals(mine, $0) } }
  }

  package var description: String { "<redacted>" }
  package var debugDescription: String { "SecretBytes(<redacted>)" }
  /// Keeps `dump` and debuggers' mirrors from walking into the storage.
  package var customMirror: Mirror { Mirror(self, children: []) }
}
