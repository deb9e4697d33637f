/// The built-in list of the most common passwords, rejected as `too_common` by the `standard` preset.
///
/// The list is CommonPasswords.txt; scripts/generate-common-passwords packs it into ``packed`` (in
/// CommonPasswordTable.swift): static data that costs nothing at start and nothing on the first request, where a
/// `Set` of a few hundred Strings would be built and hashed. A lookup is a binary search among the entries of the
/// password's length, each a fixed-width slice of one string.
enum CommonPasswords {
  /// Whether `password` is on the list, ignoring ASCII case (every entry is lower-case ASCII).
  static func contains(_ password: String) -> Bool {
    guard password.utf8.count <= maxLength else { return false }
    var password = password
    return password.withUTF8 { contains(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// Whether the UTF-8 bytes `password` are on the list, ignoring ASCII case; for callers that hold bytes, not a
  /// String.
  static func contains(utf8 password: UnsafeRawBufferPointer) -> Bool {
    let length = password.count
    guard length > 0, length <= maxLength else { return false }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { lowered in
      for (index, byte) in password.enumerated() { lowered[index] = ASCII.isUppercase(byte) ? byte | 0x20 : byte }
      return search(UnsafeRawBufferPointer(lowered))
    }
  }

  /// The entries, in table order: for tests and tools, never on a request's path.
  static var entries: [String] {
    var entries: [String] = []
    for length in 1...maxLength {
      var offset = lengthStart[length]
      while offset < lengthStart[length + 1] {
        entries.append(String(decoding: entry(at: offset, length: length), as: UTF8.self))
        offset += length
      }
    }
    return entries
  }

  /// Binary search among the entries as long as `lowered`, compared byte by byte.
  private static func search(_ lowered: UnsafeRawBufferPointer) -> Bool {
    let length = lowered.count
    var low = 0
    var high = (lengthStart[length + 1] - lengthStart[length]) / length
    while low < high {
      let middle = (low + high) / 2
      let candidate = entry(at: lengthStart[length] + middle * length, length: length)
      let order = compare(candidate, lowered)
      if order == 0 { return true }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return false
  }

  private static func entry(at offset: Int, length: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: packed.utf8Start + offset, count: length)
  }

  /// memcmp's order on equal-length byte strings: negative, zero or positive.
  private static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
    for index in 0..<left.count where left[index] != right[index] {
      return Int(left[index]) - Int(right[index])
    }
    return 0
  }
}
