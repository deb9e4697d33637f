internal import COpenSSL

/// An owned `EVP_PKEY` and the one-shot `EVP_DigestSign` / `EVP_DigestVerify` calls JWS needs.
final class EVPKey {
  let pointer: OpaquePointer

  init(taking pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    EVP_PKEY_free(pointer)
  }

  convenience init(ed25519PrivateKey key: SecretBytes) throws {
    try LibCrypto.require()
    guard key.count == 32 else { throw CryptoError.invalidKey("Ed25519 private key must be 32 bytes") }
    let pointer = key.withUnsafeBytes { key in
      key.withNonNullBytes { EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, $0, $1) }
    }
    guard let pointer else { throw CryptoError.invalidKey("Ed25519 private key rejected") }
    self.init(taking: pointer)
  }

  convenience init(ed25519PublicKey key: [UInt8]) throws {
    try LibCrypto.require()
    guard key.count == 32 else { throw CryptoError.invalidKey("Ed25519 public key must be 32 bytes") }
    let pointer = key.withNonNullBytes { EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, $0, $1) }
    guard let pointer else { throw CryptoError.invalidKey("Ed25519 public key rejected") }
    self.init(taking: pointer)
  }

  var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

  func rawPublicKey() throws -> [UInt8] {
    var length = 0
    guard EVP_PKEY_get_raw_public_key(pointer, nil, &length) == 1 else {
      throw CryptoError.openSSLFailure("EVP_PKEY_get_raw_public_key")
    }
    var key = [UInt8](repeating: 0, count: length)
    guard EVP_PKEY_get_raw_public_key(pointer, &key, &length) == 1 else {
      throw CryptoError.openSSLFailure("EVP_PKEY_get_raw_public_key")
    }
    return Array(key.prefix(length))
  }

  /// `digest` is nil for Ed25519, which hashes internally (PureEdDSA).
  func sign(_ message: [UInt8], digest: FetchedAlgorithm?) throws -> [UInt8] {
    let context = try DigestContext()
    // Only `context.pointer` is used below; keep the owner alive until the last C call.
    return try withExtendedLifetime(context) {
      guard EVP_DigestSignInit(context.pointer, nil, digest?.pointer, nil, pointer) == 1 else {
        throw CryptoError.openSSLFailure("EVP_DigestSignInit")
      }
      return try message.withNonNullBytes { bytes, count in
        var length = 0
        guard EVP_DigestSign(context.pointer, nil, &length, bytes, count) == 1 else {
          throw CryptoError.openSSLFailure("EVP_DigestSign")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context.pointer, &signature, &length, bytes, count) == 1 else {
          throw CryptoError.openSSLFailure("EVP_DigestSign")
        }
        return Array(signature.prefix(length))
      }
    }
  }

  /// Any failure, including a malformed signature, is just `false`; the error queue is drained either way.
  func verify(_ signature: [UInt8], message: [UInt8], digest: FetchedAlgorithm?) -> Bool {
    defer { OpenSSLErrorQueue.clear() }
    guard let context = try? DigestContext() else { return false }
    return withExtendedLifetime(context) {
      guard EVP_DigestVerifyInit(context.pointer, nil, digest?.pointer, nil, pointer) == 1 else { return false }
      let status = signature.withNonNullBytes { signatureBytes, signatureCount in
        message.withNonNullBytes { EVP_DigestVerify(context.pointer, signatureBytes, signatureCount, $0, $1) }
      }
      return status == 1
    }
  }
}

/// An owned `EVP_MD_CTX`.
final class DigestContext {
  let pointer: OpaquePointer

  init() throws {
    try LibCrypto.require()
    guard let pointer = EVP_MD_CTX_new() else { throw CryptoError.openSSLFailure("EVP_MD_CTX_new") }
    self.pointer = pointer
  }

  deinit {
    EVP_MD_CTX_free(pointer)
  }
}
