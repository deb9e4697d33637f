/// Standard base64 with padding (RFC 4648 §4), strict on input.
package enum Base64 {
  package static func encode(_ bytes: [UInt8]) -> String {
    Base64Codec.encode(bytes, alphabet: .standard, padded: true)
  }

  /// `nil` unless `text` is canonical padded base64: no whitespace, no line breaks, no stray bits.
  package static func decode(_ text: String) -> [UInt8]? {
    Base64Codec.decode(text, alphabet: .standard, padded: true)
  }
}
