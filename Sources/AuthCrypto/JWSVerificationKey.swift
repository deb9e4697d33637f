/// A key that verifies JWS signatures: ours, or an issuer's from its JWKS.
package enum JWSVerificationKey: Sendable {
  case hmac(SecretBytes)
  case ed25519(publicKey: [UInt8])
  /// Big-endian JWK `n` and `e`.
  case rsa(modulus: [UInt8], exponent: [UInt8])
  /// JWK `x` and `y`, 32 bytes each (RFC 7518 §6.2.1.2 forbids trimming leading zeros).
  case ecP256(x: [UInt8], y: [UInt8])

  /// RFC 7518 §3.2: an HS256 key must be at least as long as the hash.
  package static let minimumHMACKeyByteCount = 32
  /// RFC 7518 §3.3: RS256 keys must be at least 2048 bits.
  package static let minimumRSABits = 2048

  /// `true` only when `signature` is valid for `signingInput` under this key *and* `algorithm` is the one
  /// algorithm this key type serves. The algorithm comes from the token's header, so checking the pairing here
  /// closes algorithm confusion (an RSA public key used as an HMAC secret, for instance). Unusable keys,
  /// including HMAC keys under 32 bytes and RSA keys under 2048 bits, verify nothing.
  package func verify(signature: [UInt8], signingInput: [UInt8], algorithm: JWSAlgorithm) -> Bool {
    switch (self, algorithm) {
    case (.hmac(let key), .hs256):
      guard key.count >= Self.minimumHMACKeyByteCount else { return false }
      return HMACSHA256.isValidAuthenticationCode(signature, authenticating: signingInput, key: key)
    case (.ed25519, .edDSA), (.rsa, .rs256), (.ecP256, .es256):
      return verifyAsymmetric(signature: signature, signingInput: signingInput)
    case (.hmac, _), (.ed25519, _), (.rsa, _), (.ecP256, _):
      return false
    }
  }

  /// Checks that the key can be used at all, so a bad JWKS entry is rejected when it is loaded rather than
  /// failing every verification silently.
  /// - Throws: `CryptoError` (`invalidKey`) naming the problem.
  package func validate() throws {
    switch self {
    case .hmac(let key):
      guard key.count >= Self.minimumHMACKeyByteCount else {
        throw CryptoError.invalidKey("HS256 key shorter than 32 bytes")
      }
    case .ed25519, .rsa, .ecP256:
      _ = try importKey()
    }
  }

  private func verifyAsymmetric(signature: [UInt8], signingInput: [UInt8]) -> Bool {
    // An unusable key is a failed verification here; `validate()` reports why.
    guard let key = try? importKey() else { return false }
    switch self {
    case .hmac:
      return false
    case .ed25519:
      return key.verify(signature, message: signingInput, digest: nil)
    case .rsa:
      return key.verify(signature, message: signingInput, digest: .sha256)
    case .ecP256:
      guard let der = ECDSASignature.der(fromRaw: signature, coordinateByteCount: 32) else { return false }
      return key.verify(der, message: signingInput, digest: .sha256)
    }
  }

  private func importKey() throws -> EVPKey {
    switch self {
    case .hmac:
      throw CryptoError.invalidKey("HMAC keys are not EVP keys")
    case .ed25519(let publicKey):
      return try EVPKey(ed25519PublicKey: publicKey)
    case .rsa(let modulus, let exponent):
      let key = try EVPKey(rsaModulus: modulus, exponent: exponent)
      guard key.bits >= Self.minimumRSABits else { throw CryptoError.invalidKey("RSA key shorter than 2048 bits") }
      return key
    case .ecP256(let x, let y):
      return try EVPKey(p256X: x, y: y)
    }
  }
}
