/// Lower-case hex, for lock file names and for keys given as 64 hex digits.
enum Hex {
  static func encode(_ bytes: [UInt8]) -> String {
    var text = encodedDigits(bytes)
    defer { text.wipe() }
    return String(decoding: text, as: UTF8.self)
  }

  /// The digits as bytes, for key material: a `String` copy could not be wiped.
  static func encodedDigits(_ bytes: [UInt8]) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return text
  }

  /// nil unless every character is a hex digit (either case) and the count is even.
  static func decode(_ text: String) -> [UInt8]? { decode(digits: Array(text.utf8)) }

  static func decode(digits characters: [UInt8]) -> [UInt8]? {
    guard characters.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(characters.count / 2)
    var index = 0
    while index < characters.count {
      guard let high = value(characters[index]), let low = value(characters[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
