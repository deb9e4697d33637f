/// Byte classes for the ASCII-only rules of the spec.
///
/// Rules scan UTF-8 bytes rather than Characters: every class the spec names is ASCII, and a byte below
/// 0x80 in valid UTF-8 is always a whole code point, so no multi-byte sequence can be mistaken for one.
enum ASCII {
  static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26
  }

  static func isUppercase(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "A") < 26
  }

  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte)
  }

  static func lowercased(_ byte: UInt8) -> UInt8 {
    isUppercase(byte) ? byte | 0x20 : byte
  }

  /// `bytes` with ASCII letters lower-cased, written straight into the new string's storage (inline for
  /// up to 15 bytes) rather than through an intermediate array.
  static func lowercased(_ bytes: some Collection<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count) { buffer in
      for (offset, byte) in bytes.enumerated() {
        buffer[offset] = lowercased(byte)
      }
      return bytes.count
    }
  }

  /// The range of `bytes` without leading and trailing ASCII white space, which is all of Unicode's
  /// `White_Space` there is in ASCII input (see `trimmingWhitespace`).
  static func trimmingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    var start = 0
    var end = bytes.count
    while start < end, isWhitespace(bytes[start]) { start += 1 }
    while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
    return start..<end
  }

  /// Whether every byte is below 0x80, in one pass without branches.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var all: UInt8 = 0
    for byte in bytes { all |= byte }
    return all < 0x80
  }

  /// Tab, line feed, vertical tab, form feed, carriage return and space.
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte &- 0x09 < 5
  }

  /// A C0 control character or DEL, which a password may not contain.
  static func isControl(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F
  }

  /// Counts code points: every byte except a UTF-8 continuation byte starts one.
  static func codePointCount<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
    var count = 0
    for byte in bytes where byte & 0xC0 != 0x80 {
      count += 1
    }
    return count
  }

  /// Compares `bytes` with a lower-case ASCII literal, ignoring ASCII case.
  static func equalsIgnoringCase<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    return lowercase.withUTF8Buffer { expected in
      zip(bytes, expected).allSatisfy { lowercased($0) == $1 }
    }
  }
}
