/// Unpadded base64url (RFC 4648 §5, RFC 7515 §2), as JWS and PKCE use it; strict on input.
package enum Base64URL {
  package static func encode(_ bytes: [UInt8]) -> String {
    Base64Codec.encode(bytes, alphabet: .url, padded: false)
  }

  /// `nil` unless `text` is canonical unpadded base64url: no `=`, no `+` or `/`, no whitespace, no stray bits.
  package static func decode(_ text: String) -> [UInt8]? {
    Base64Codec.decode(text, alphabet: .url, padded: false)
  }
}
