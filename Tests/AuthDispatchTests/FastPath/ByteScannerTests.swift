import Testing

@testable import AuthDispatch

/// The string scan reads eight bytes at a time; its flags must find exactly the first byte a plain string
/// cannot hold, whatever comes after it.
@Suite struct ByteScannerTests {
  /// Visible ASCII other than a quote or a backslash, as the byte-wise scan decides it.
  private static func isPlain(_ byte: UInt8) -> Bool {
    (0x20...0x7F).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
  }

  /// The index of the first byte of `word` (little-endian) that is not plain, or 8.
  private static func firstUnusual(_ word: UInt64) -> Int {
    (0..<8).first { !isPlain(UInt8(truncatingIfNeeded: word >> (8 * $0))) } ?? 8
  }

  private static func flagged(_ word: UInt64) -> Int {
    ByteScanner.unusualBytes(word).trailingZeroBitCount / 8
  }

  @Test func everyByteValueAtEveryPositionAmongPlainBytes() {
    let plain = UInt64(0x6161_6161_6161_6161)  // "aaaaaaaa"
    for position in 0..<8 {
      for value in UInt64(0)...0xFF {
        let word = plain & ~(0xFF << (8 * position)) | value << (8 * position)
        #expect(Self.flagged(word) == Self.firstUnusual(word), "byte \(value) at \(position)")
      }
    }
  }

  /// Borrows between bytes: every pair of bytes from the values around each boundary, in every pair of places.
  @Test func neighbouringBytesNeverHideOrMoveTheFirstFlag() {
    let edges: [UInt64] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xFF]
    for first in edges {
      for second in edges {
        for position in 0..<7 {
          let word = UInt64(0x4141_4141_4141_4141) & ~(0xFFFF << (8 * position))
            | (first | second << 8) << (8 * position)
          #expect(Self.flagged(word) == Self.firstUnusual(word), "\(first), \(second) at \(position)")
        }
      }
    }
  }

  @Test func randomWords() {
    var random = SplitMix64(seed: 0xB17E5)
    for _ in 0..<200_000 {
      // Mostly plain bytes, so that the first unusual one falls anywhere in the word.
      var word: UInt64 = 0
      for position in 0..<8 {
        let byte = random.below(6) == 0 ? UInt64(random.below(256)) : UInt64(0x20 + random.below(0x60))
        word |= byte << (8 * position)
      }
      #expect(Self.flagged(word) == Self.firstUnusual(word))
    }
  }
}
