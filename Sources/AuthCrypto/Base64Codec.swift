internal import COpenSSL

/// Strict base64 (RFC 4648 §4 and §5) on libcrypto's `EVP_EncodeBlock` / `EVP_DecodeBlock`.
///
/// libcrypto's decoder is lenient (it skips surrounding whitespace and accepts stray bits), and token parsing
/// must not be: a second spelling of the same bytes lets tokens be altered without changing their meaning.
/// So the text is validated here first (alphabet, padding, length, zero trailing bits) and only then decoded.
enum Base64Codec {
  enum Alphabet {
    case standard
    case url
  }

  /// libcrypto's block functions count in `Int32`; work in slices that keep whole 3-byte / 4-char groups.
  private static let bytesPerChunk = 3 * 16_384
  private static let charactersPerChunk = 4 * 16_384
  private static let invalid: UInt8 = 0xFF
  private static let padding = UInt8(ascii: "=")
  private static let standardValues = valueTable("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  private static let urlValues = valueTable("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

  static func encode(_ bytes: [UInt8], alphabet: Alphabet, padded: Bool) -> String {
    let paddedCount = (bytes.count + 2) / 3 * 4
    // One spare byte for the NUL that EVP_EncodeBlock writes after each chunk.
    var text = [UInt8](repeating: 0, count: paddedCount + 1)
    bytes.withUnsafeBufferPointer { input in
      text.withUnsafeMutableBufferPointer { output in
        var read = 0
        var written = 0
        while read < input.count {
          let chunk = min(input.count - read, bytesPerChunk)
          written += Int(EVP_EncodeBlock(output.baseAddress! + written, input.baseAddress! + read, Int32(chunk)))
          read += chunk
        }
      }
    }
    var length = paddedCount
    if !padded {
      while length > 0, text[length - 1] == padding { length -= 1 }
    }
    if alphabet == .url {
      for index in 0..<length { text[index] = toURL(text[index]) }
    }
    return String(decoding: text[..<length], as: UTF8.self)
  }

  /// `nil` for anything but the one canonical spelling: characters outside the alphabet (whitespace
  /// included), padding where `padded` forbids it or missing where it requires it, an impossible length, or
  /// non-zero bits after the last full byte.
  static func decode(_ text: String, alphabet: Alphabet, padded: Bool) -> [UInt8]? {
    var characters = Array(text.utf8)
    var dataCount = characters.count
    if padded {
      guard characters.count % 4 == 0 else { return nil }
      if dataCount > 0, characters[dataCount - 1] == padding { dataCount -= 1 }
      if dataCount > 0, characters[dataCount - 1] == padding, characters.count - dataCount == 1 { dataCount -= 1 }
    }
    let remainder = dataCount % 4
    guard remainder != 1 else { return nil }
    let values = alphabet == .url ? urlValues : standardValues
    for index in 0..<dataCount where values[Int(characters[index])] == invalid { return nil }
    if remainder > 0 {
      let unusedBits: UInt8 = remainder == 2 ? 0x0F : 0x03
      guard values[Int(characters[dataCount - 1])] & unusedBits == 0 else { return nil }
    }

    // Respell in the padded standard alphabet, the only form EVP_DecodeBlock reads.
    characters.removeSubrange(dataCount...)
    if alphabet == .url {
      for index in characters.indices { characters[index] = toStandard(characters[index]) }
    }
    if remainder > 0 { characters.append(contentsOf: repeatElement(padding, count: 4 - remainder)) }
    return decodeValidated(characters, byteCount: dataCount / 4 * 3 + max(remainder - 1, 0))
  }

  private static func decodeValidated(_ characters: [UInt8], byteCount: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: characters.count / 4 * 3)
    let decoded = characters.withUnsafeBufferPointer { input in
      bytes.withUnsafeMutableBufferPointer { output in
        var read = 0
        var written = 0
        while read < input.count {
          let chunk = min(input.count - read, charactersPerChunk)
          let produced = EVP_DecodeBlock(output.baseAddress! + written, input.baseAddress! + read, Int32(chunk))
          guard produced >= 0 else { return false }
          read += chunk
          written += Int(produced)
        }
        return true
      }
    }
    guard decoded else { return nil }
    // EVP_DecodeBlock counts the zero bytes that padding stands for; drop them.
    bytes.removeSubrange(byteCount...)
    return bytes
  }

  private static func valueTable(_ alphabet: String) -> [UInt8] {
    var table = [UInt8](repeating: invalid, count: 256)
    for (value, character) in alphabet.utf8.enumerated() { table[Int(character)] = UInt8(value) }
    return table
  }

  private static func toURL(_ character: UInt8) -> UInt8 {
    switch character {
    case UInt8(ascii: "+"): UInt8(ascii: "-")
    case UInt8(ascii: "/"): UInt8(ascii: "_")
    default: character
    }
  }

  private static func toStandard(_ character: UInt8) -> UInt8 {
    switch character {
    case UInt8(ascii: "-"): UInt8(ascii: "+")
    case UInt8(ascii: "_"): UInt8(ascii: "/")
    default: character
    }
  }
}
