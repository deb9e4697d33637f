/// A bit per hash of the common passwords, so that checking a password typed as bytes rarely needs the
/// String lookup: a clear bit proves the password is not on the list; a set bit sends it to
/// `CommonPasswords.contains`, which decides. Built on first use, from the same list.
///
/// The request fast path needs this because the list is only searchable by String, and building a String
/// (with a heap copy past 15 bytes, and lower-cased) then hashing it cost more than all the other rules.
enum CommonPasswordFilter {
  private static let bitCount = 1 << 14

  private static let bits: [UInt64] = {
    var bits = [UInt64](repeating: 0, count: bitCount / 64)
    for entry in CommonPasswords.entries {
      let slot = hash(entry.utf8)
      bits[slot >> 6] |= 1 << UInt64(slot & 63)
    }
    return bits
  }()

  /// Whether the ASCII `password` is on the list, ignoring ASCII case as the list does.
  static func contains(_ password: UnsafeBufferPointer<UInt8>) -> Bool {
    guard password.count <= CommonPasswords.maxLength else { return false }
    let slot = hash(password)
    guard bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0 else { return false }
    return CommonPasswords.contains(String(decoding: password, as: UTF8.self))
  }

  /// FNV-1a of the lower-cased bytes, folded to `bitCount` slots.
  private static func hash(_ bytes: some Sequence<UInt8>) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(ASCII.lowercased(byte))) &* 0x100_0000_01B3
    }
    return Int(truncatingIfNeeded: (hash ^ hash >> 32) & UInt64(bitCount - 1))
  }
}
