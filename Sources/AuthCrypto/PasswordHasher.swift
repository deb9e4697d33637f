/// Password storage hashes as PHC-format strings:
/// `$pbkdf2-sha256$i=600000$<salt>$<hash>` and `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`,
/// salt and hash in unpadded standard base64 as the PHC string format specifies.
///
/// Passwords are hashed as their UTF-8 bytes, unnormalized: Unicode normalization (NFC) belongs to the caller,
/// before both `hash` and `verify`. Each call takes 100+ ms at real settings; run it off the request path.
package struct PasswordHasher: Sendable {
  package enum Algorithm: Sendable, Hashable {
    case pbkdf2SHA256(iterations: Int)
    case scrypt(logN: Int, r: Int, p: Int)
  }

  /// OWASP Password Storage Cheat Sheet: PBKDF2-HMAC-SHA256 at 600,000 iterations, 16-byte salt, 32-byte key.
  /// OWASP prefers scrypt N=2^17, r=8, p=1, but that needs 128 MiB per hash in flight, far over our 30 MB RSS
  /// bar, so the default is PBKDF2; scrypt stays available through `init(algorithm:)` and `verify`.
  /// Measured cost: 137 ms of CPU per hash, and the same per verify (median of 9; 2-core AMD EPYC x86_64,
  /// OpenSSL 3.0.19). Wall time matches on an idle machine and reached 180–340 ms with both cores contended.
  package static let owasp = PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 600_000))

  package static let saltByteCount = 16
  package static let hashByteCount = 32
  /// Bounds the work a corrupted or hostile stored string can demand (10 M is roughly 2.5 s); scrypt's memory is
  /// bounded by `KeyDerivation.scryptMemoryLimit`.
  package static let maximumIterations = 10_000_000

  package let algorithm: Algorithm

  package init(algorithm: Algorithm) {
    self.algorithm = algorithm
  }

  /// A fresh random salt and this hasher's algorithm, encoded as a PHC string.
  /// - Throws: `CryptoError` for parameters out of range or a libcrypto failure.
  package func hash(password: String) throws -> String {
    try Self.withUTF8(of: password) { try hash(password: $0) }
  }

  package func hash(password: SecretBytes) throws -> String {
    try password.withUnsafeBytes { try hash(password: $0) }
  }

  /// Checks `password` against `encoded` in constant time, whichever supported algorithm `encoded` names.
  /// - Returns: `false` for a wrong password.
  /// - Throws: `CryptoError`: `isMalformedInput` when `encoded` is not a well-formed hash string we support;
  ///   an invalid-parameters error when it asks for more work than `maximumIterations` or
  ///   `KeyDerivation.scryptMemoryLimit` allow (refused before any work is done).
  package func verify(password: String, encoded: String) throws -> Bool {
    let stored = try EncodedPasswordHash(parsing: encoded)
    return try Self.withUTF8(of: password) { try Self.matches($0, stored) }
  }

  package func verify(password: SecretBytes, encoded: String) throws -> Bool {
    let stored = try EncodedPasswordHash(parsing: encoded)
    return try password.withUnsafeBytes { try Self.matches($0, stored) }
  }

  /// A well-formed hash with this hasher's parameters made from random bytes, without running
  /// the KDF. It matches no password, and verifying against it costs exactly one KDF run — the
  /// same as a wrong password for a real account — so "no such account" takes no less and no
  /// more time than "wrong password".
  /// - Throws: `CryptoError` if the random generator fails.
  package func decoyHash() throws -> String {
    let bytes = try RandomBytes.generate(Self.saltByteCount + Self.hashByteCount)
    return EncodedPasswordHash(
      algorithm: algorithm, salt: Array(bytes.prefix(Self.saltByteCount)), hash: Array(bytes.suffix(Self.hashByteCount))
    ).encoded
  }

  /// `true` when `encoded` should be replaced at the next successful login: it does not parse, or it was made
  /// with another algorithm, other parameters or other salt and hash sizes than this hasher uses now.
  package func needsRehash(_ encoded: String) -> Bool {
    guard let stored = try? EncodedPasswordHash(parsing: encoded) else { return true }
    return stored.algorithm != algorithm || stored.salt.count != Self.saltByteCount
      || stored.hash.count != Self.hashByteCount
  }

  private func hash(password: UnsafeRawBufferPointer) throws -> String {
    let salt = try RandomBytes.generate(Self.saltByteCount)
    let hash = try Self.derive(algorithm, password: password, salt: salt, byteCount: Self.hashByteCount)
    return EncodedPasswordHash(algorithm: algorithm, salt: salt, hash: hash).encoded
  }

  private static func matches(_ password: UnsafeRawBufferPointer, _ stored: EncodedPasswordHash) throws -> Bool {
    let candidate = try derive(stored.algorithm, password: password, salt: stored.salt, byteCount: stored.hash.count)
    return ConstantTime.equals(candidate, stored.hash)
  }

  private static func derive(
    _ algorithm: Algorithm,
    password: UnsafeRawBufferPointer,
    salt: [UInt8],
    byteCount: Int
  ) throws -> [UInt8] {
    try [UInt8](unsafeUninitializedCapacity: byteCount) { key, initialized in
      switch algorithm {
      case .pbkdf2SHA256(let iterations):
        guard iterations <= maximumIterations else {
          throw CryptoError.invalidParameters("PBKDF2 iterations above \(maximumIterations)")
        }
        try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations, into: key)
      case .scrypt(let logN, let r, let p):
        try KeyDerivation.scrypt(password: password, salt: salt, logN: logN, r: r, p: p, into: key)
      }
      initialized = byteCount
    }
  }

  /// Native Swift strings are contiguous UTF-8, so this normally borrows without copying; a bridged string is
  /// copied into `SecretBytes`, which at least wipes its copy.
  private static func withUTF8<R>(of password: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
    if let result = try password.utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
      return result
    }
    return try SecretBytes(Array(password.utf8)).withUnsafeBytes(body)
  }
}
