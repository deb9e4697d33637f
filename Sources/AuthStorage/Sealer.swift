import AuthCrypto

/// Encrypts column values at rest with AES-256-GCM under the store key.
///
/// The associated data binds each ciphertext to its table, column and row key, so a sealed value copied into
/// another row or column fails to open instead of being accepted there (e.g. one profile's token moved into
/// another profile's row).
struct Sealer: Sendable {
  let key: SecretBytes
  /// The key set up once for every value sealed or opened with it.
  private let cipher: AESGCMKey

  init(key: SecretBytes) {
    self.key = key
    cipher = AESGCMKey(key)
  }

  func seal(_ plaintext: [UInt8], _ table: String, _ column: String, row: String) throws -> [UInt8] {
    do {
      return try cipher.seal(plaintext, associatedData: Self.context(table, column, row))
    } catch {
      throw StorageError(.internalError, "cannot seal \(table).\(column): \(error)")
    }
  }

  /// Seals a secret without copying it out of its wiped buffer first.
  func seal(_ secret: SecretBytes, _ table: String, _ column: String, row: String) throws -> [UInt8] {
    do {
      return try secret.withUnsafeBytes { try cipher.seal($0, associatedData: Self.context(table, column, row)) }
    } catch {
      throw StorageError(.internalError, "cannot seal \(table).\(column): \(error)")
    }
  }

  /// - Throws: `StorageError.corrupt` when the value does not authenticate: a changed key or a tampered row.
  ///   Nothing is moved aside for this; the file itself is fine.
  func open(_ sealed: [UInt8], _ table: String, _ column: String, row: String) throws -> [UInt8] {
    do {
      return try cipher.open(sealed, associatedData: Self.context(table, column, row))
    } catch {
      throw Self.undecryptable(table, column)
    }
  }

  private static func undecryptable(_ table: String, _ column: String) -> StorageError {
    StorageError.corrupt(
      "a sealed value in \(table).\(column) could not be decrypted; was AUTH_SIDECAR_KEY or store.key changed "
        + "since it was written?")
  }

  /// Like `open`, straight into a `SecretBytes`: no unwiped copy of the secret exists.
  func openSecret(_ sealed: [UInt8], _ table: String, _ column: String, row: String) throws -> SecretBytes {
    do {
      return try cipher.openSecret(sealed, associatedData: Self.context(table, column, row))
    } catch {
      throw Self.undecryptable(table, column)
    }
  }

  /// Length-prefixed parts, so ("a", "bc") and ("ab", "c") can never produce the same bytes. These bytes are bound
  /// into every sealed value of every store: they must never change (`SealerTests` pins them).
  ///
  /// Written into one buffer sized up front: every sealed column of every transaction builds one, and the arrays the
  /// parts were copied through cost a login's commit about 25,000 instructions.
  static func context(_ table: String, _ column: String, _ row: String) -> [UInt8] {
    let prefix = "auth-sidecar/sealed/v1".utf8
    var bytes: [UInt8] = []
    bytes.reserveCapacity(prefix.count + 12 + table.utf8.count + column.utf8.count + row.utf8.count)
    bytes.append(contentsOf: prefix)
    func appendPart(_ part: String) {
      let count = UInt32(part.utf8.count)
      bytes.append(UInt8(count >> 24))
      bytes.append(UInt8(truncatingIfNeeded: count >> 16))
      bytes.append(UInt8(truncatingIfNeeded: count >> 8))
      bytes.append(UInt8(truncatingIfNeeded: count))
      bytes.append(contentsOf: part.utf8)
    }
    appendPart(table)
    appendPart(column)
    appendPart(row)
    return bytes
  }
}
