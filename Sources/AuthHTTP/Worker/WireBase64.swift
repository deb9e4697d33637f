/// Standard padded base64 (RFC 4648 §4) for bodies on the worker's wire.
///
/// AuthCrypto has one on libcrypto; this module stays off OpenSSL so that it depends only on the standard
/// library, and bodies here are at most a few MiB, where a table loop is fast enough (about 1 GB/s).
package enum WireBase64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let invalid: UInt8 = 0xFF
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  package static func encode(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      out.append(alphabet[Int(group >> 18 & 63)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(alphabet[Int(group >> 6 & 63)])
      out.append(alphabet[Int(group & 63)])
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      out.append(alphabet[Int(group >> 18 & 63)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(rest == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
      out.append(UInt8(ascii: "="))
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Nil unless `text` is padded base64 with no other character.
  package static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var padding = 0
    if input.last == UInt8(ascii: "=") { padding += 1 }
    if input.count >= 2, input[input.count - 2] == UInt8(ascii: "=") { padding += 1 }
    var out = [UInt8]()
    out.reserveCapacity(input.count / 4 * 3)
    var index = 0
    while index < input.count {
      var group: UInt32 = 0
      for offset in 0..<4 {
        let byte = input[index + offset]
        let isPadding = byte == UInt8(ascii: "=") && index + offset >= input.count - padding
        let value = isPadding ? 0 : values[Int(byte)]
        guard value != invalid else { return nil }
        group = group << 6 | UInt32(value)
      }
      out.append(UInt8(group >> 16 & 0xFF))
      out.append(UInt8(group >> 8 & 0xFF))
      out.append(UInt8(group & 0xFF))
      index += 4
    }
    out.removeLast(padding)
    return out
  }
}
