import AuthCrypto

/// What a store key's keyring item holds: the key as 64 hex digits, the text form Secret Service clients expect.
/// Both directions work on byte arrays that are wiped, never on a `String`, which could not be.
enum KeyringItem {
  static func text(of key: SecretBytes) -> [UInt8] {
    key.withUnsafeBytes { raw in
      var bytes = Array(raw)
      defer { bytes.wipe() }
      return Hex.encodedDigits(bytes)
    }
  }

  /// - Throws: `StorageError.corrupt` when the item does not hold a key (edited by hand, or another program's).
  static func key(from text: [UInt8], directory: String) throws -> SecretBytes {
    guard text.count == StoreKey.byteCount * 2, var bytes = Hex.decode(digits: text) else {
      throw StorageError(
        .corrupt, "the keyring item for the store in \(directory) does not hold a store key (64 hex digits); "
          + "restore it (nothing was written)", reason: "wrong_key")
    }
    defer { bytes.wipe() }
    return SecretBytes(bytes)
  }
}
