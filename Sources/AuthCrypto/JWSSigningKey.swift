/// A key that signs JWS tokens we issue (the local provider's access tokens).
package enum JWSSigningKey: Sendable {
  /// HS256. RFC 7518 §3.2 requires at least 32 bytes; shorter keys are refused.
  case hmac(SecretBytes)
  /// EdDSA over Ed25519 (RFC 8037); the 32-byte private key (seed) of RFC 8032 §5.1.5.
  case ed25519(privateKey: SecretBytes)

  /// A new Ed25519 key: per RFC 8032 §5.1.5 the private key is 32 random bytes, here from `RAND_priv_bytes`.
  /// - Throws: `CryptoError` if the random generator fails.
  package static func generateEd25519() throws -> JWSSigningKey {
    .ed25519(privateKey: try SecretBytes(randomCount: 32))
  }

  /// A new 32-byte HS256 key.
  /// - Throws: `CryptoError` if the random generator fails.
  package static func generateHMAC() throws -> JWSSigningKey {
    .hmac(try SecretBytes(randomCount: JWSVerificationKey.minimumHMACKeyByteCount))
  }

  package var algorithm: JWSAlgorithm {
    switch self {
    case .hmac: .hs256
    case .ed25519: .edDSA
    }
  }

  /// Signs the JWS signing input (`ASCII(b64url(header) "." b64url(payload))`).
  /// - Throws: `CryptoError` for a key of the wrong size or a libcrypto failure.
  package func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
    switch self {
    case .hmac(let key):
      guard key.count >= JWSVerificationKey.minimumHMACKeyByteCount else {
        throw CryptoError.invalidKey("HS256 key shorter than 32 bytes")
      }
      return HMACSHA256.authenticate(signingInput, key: key)
    case .ed25519(let privateKey):
      return try EVPKey(ed25519PrivateKey: privateKey).sign(signingInput, digest: nil)
    }
  }

  /// The matching key for `JWSVerificationKey.verify`: the same secret for HMAC, the public key for Ed25519.
  /// - Throws: `CryptoError` for a malformed private key.
  package func verificationKey() throws -> JWSVerificationKey {
    switch self {
    case .hmac(let key):
      .hmac(key)
    case .ed25519(let privateKey):
      .ed25519(publicKey: try EVPKey(ed25519PrivateKey: privateKey).rawPublicKey())
    }
  }
}
