import AuthCrypto

/// Proof Key for Code Exchange (RFC 7636) with the S256 method only: `plain` would put the verifier on the
/// front channel, where anyone who sees the authorization URL could redeem the code (RFC 9700 §2.1.1).
struct PKCE: Sendable {
  /// 43 characters of `[A-Za-z0-9-_]`: 32 CSPRNG bytes in base64url (§4.1's recommendation; 256 bits, well
  /// past RFC 6749 §10.10's 2^-128 bound on guessing a credential). Sent only to the token endpoint, over the
  /// back channel.
  let verifier: SecretBytes
  /// `BASE64URL(SHA256(ASCII(verifier)))` (§4.2); goes into the authorization URL.
  let challenge: String

  static let method = "S256"

  /// - Throws: `CryptoError` when the random source fails.
  static func generate(_ random: any RandomSource) throws -> PKCE {
    var bytes = try random.bytes(32)
    defer { for index in bytes.indices { bytes[index] = 0 } }
    return PKCE(verifier: SecretBytes(Array(Base64URL.encode(bytes).utf8)))
  }

  init(verifier: SecretBytes) {
    self.verifier = verifier
    challenge = Self.challenge(for: verifier)
  }

  static func challenge(for verifier: SecretBytes) -> String { Base64URL.encode(SHA256.hash(verifier)) }
}

/// Single-use values the authorization request carries: `state` (RFC 6749 §10.12, CSRF on the redirect)
/// and `nonce` (OIDC Core §3.1.2.1, replay of an ID token). 32 random bytes each, base64url.
enum RequestNonce {
  static func generate(_ random: any RandomSource) throws -> String { Base64URL.encode(try random.bytes(32)) }
}
