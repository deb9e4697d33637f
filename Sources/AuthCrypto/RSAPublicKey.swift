internal import COpenSSL

/// An RSA public key from PEM, for encrypting a password to a server that asks for it that way (older mobile
/// backends "RSA-encrypt the password so it never travels in clear"). Encryption only: the sidecar never holds
/// the private half.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never modified after it is decoded, and OpenSSL 3 allows one key to
/// be used by many threads at once as long as nobody changes it; each encryption makes its own context.
package final class RSAPublicKey: @unchecked Sendable {
  package enum Padding: Sendable {
    /// RSAES-PKCS1-v1_5.
    case pkcs1
    /// RSAES-OAEP with SHA-256 as both the hash and MGF1's hash, no label.
    case oaepSHA256
  }

  /// Below this a key is factorable today; encrypting a password to it would only pretend to protect it.
  package static let minimumBits = 1024

  private let key: EVPKey

  /// - Parameter pem: `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo) or `-----BEGIN RSA PUBLIC KEY-----`
  ///   (PKCS #1), as servers publish either.
  /// - Throws: `CryptoError` (`invalidKey`) for anything else, an RSA key under `minimumBits` included.
  package init(pem: String) throws {
    try LibCrypto.require()
    var decoded: OpaquePointer?
    guard
      let decoder = OSSL_DECODER_CTX_new_for_pkey(
        &decoded, auth_ossl_input_type_pem(), nil, auth_ossl_key_type_rsa(), auth_evp_pkey_public_key_selection(),
        nil, nil)
    else { throw CryptoError.openSSLFailure("OSSL_DECODER_CTX_new_for_pkey") }
    defer { OSSL_DECODER_CTX_free(decoder) }
    let bytes = Array(pem.utf8)
    let status = bytes.withUnsafeBufferPointer { buffer -> Int32 in
      var data = buffer.baseAddress
      var length = buffer.count
      return OSSL_DECODER_from_data(decoder, &data, &length)
    }
    guard status == 1, let decoded else { throw CryptoError.invalidKey("not an RSA public key in PEM") }
    key = EVPKey(taking: decoded)
    guard key.bits >= Self.minimumBits else {
      throw CryptoError.invalidKey("RSA key of \(key.bits) bits; at least \(Self.minimumBits) are needed")
    }
  }

  package var bits: Int { key.bits }

  /// One RSA block: `plaintext` must fit the key and padding (a 2048-bit key takes 245 bytes with PKCS #1,
  /// 190 with OAEP-SHA-256).
  /// - Throws: `CryptoError` (`invalidParameters` for a plaintext too long for the key).
  package func encrypt(_ plaintext: [UInt8], padding: Padding) throws -> [UInt8] {
    guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
      throw CryptoError.openSSLFailure("EVP_PKEY_CTX_new_from_pkey")
    }
    defer { EVP_PKEY_CTX_free(context) }
    guard EVP_PKEY_encrypt_init(context) == 1 else { throw CryptoError.openSSLFailure("EVP_PKEY_encrypt_init") }
    try Self.configure(context, padding)
    return try plaintext.withNonNullBytes { bytes, count in
      var length = 0
      guard EVP_PKEY_encrypt(context, nil, &length, bytes, count) == 1 else {
        throw CryptoError.openSSLFailure("EVP_PKEY_encrypt (size)")
      }
      var output = [UInt8](repeating: 0, count: length)
      guard EVP_PKEY_encrypt(context, &output, &length, bytes, count) == 1 else {
        // The one failure bad input causes: more bytes than one block of this key and padding holds.
        OpenSSLErrorQueue.clear()
        throw CryptoError.invalidParameters("plaintext too long for a \(key.bits)-bit RSA key")
      }
      return Array(output.prefix(length))
    }
  }

  private static func configure(_ context: OpaquePointer, _ padding: Padding) throws {
    switch padding {
    case .pkcs1:
      guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1 else {
        throw CryptoError.openSSLFailure("EVP_PKEY_CTX_set_rsa_padding(PKCS1)")
      }
    case .oaepSHA256:
      guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1,
        EVP_PKEY_CTX_set_rsa_oaep_md_name(context, "SHA256", nil) == 1,
        EVP_PKEY_CTX_set_rsa_mgf1_md_name(context, "SHA256", nil) == 1
      else { throw CryptoError.openSSLFailure("setting RSA-OAEP-SHA256") }
    }
  }
}
