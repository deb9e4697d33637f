internal import COpenSSL

/// Public keys from their JWK numbers (RFC 7518 §6.2 and §6.3) through `EVP_PKEY_fromdata`, the
/// non-deprecated OpenSSL 3 path (RSA_set0_key and EC_KEY are deprecated).
extension EVPKey {
  /// RSA public key from big-endian modulus and exponent bytes.
  convenience init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws {
    guard !modulus.isEmpty, !exponent.isEmpty else { throw CryptoError.invalidKey("RSA modulus or exponent empty") }
    let n = try BigNumber(modulus)
    let e = try BigNumber(exponent)
    // The builder keeps the BIGNUM pointers until it copies them out; the objects must outlive that.
    let key = try withExtendedLifetime((n, e)) {
      try Self.importPublicKey(type: "RSA") { builder in
        OSSL_PARAM_BLD_push_BN(builder, auth_ossl_param_rsa_n(), n.pointer) == 1
          && OSSL_PARAM_BLD_push_BN(builder, auth_ossl_param_rsa_e(), e.pointer) == 1
      }
    }
    self.init(taking: key)
  }

  /// P-256 public key from its 32-byte affine coordinates; libcrypto rejects points not on the curve.
  convenience init(p256X x: [UInt8], y: [UInt8]) throws {
    guard x.count == 32, y.count == 32 else { throw CryptoError.invalidKey("P-256 coordinates must be 32 bytes") }
    // SEC 1 §2.3.3 uncompressed point: 0x04 ‖ x ‖ y.
    let point: [UInt8] = [0x04] + x + y
    let key = try point.withUnsafeBytes { point in
      try Self.importPublicKey(type: "EC") { builder in
        OSSL_PARAM_BLD_push_utf8_string(builder, auth_ossl_param_group_name(), auth_ossl_group_p256(), 0) == 1
          && OSSL_PARAM_BLD_push_octet_string(builder, auth_ossl_param_public_key(), point.baseAddress, point.count)
            == 1
      }
    }
    self.init(taking: key)
  }

  /// Builds the parameters with `push` and imports them. The builder reads what `push` gave it only in
  /// `OSSL_PARAM_BLD_to_param`, so those pointers must stay valid until this returns.
  private static func importPublicKey(type: String, push: (OpaquePointer) -> Bool) throws -> OpaquePointer {
    try LibCrypto.require()
    guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError.openSSLFailure("OSSL_PARAM_BLD_new") }
    defer { OSSL_PARAM_BLD_free(builder) }
    guard push(builder), let parameters = OSSL_PARAM_BLD_to_param(builder) else {
      throw CryptoError.openSSLFailure("building \(type) key parameters")
    }
    defer { OSSL_PARAM_free(parameters) }
    guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
      throw CryptoError.openSSLFailure("EVP_PKEY_CTX_new_from_name(\(type))")
    }
    defer { EVP_PKEY_CTX_free(context) }
    var key: OpaquePointer?
    guard EVP_PKEY_fromdata_init(context) == 1,
      EVP_PKEY_fromdata(context, &key, auth_evp_pkey_public_key_selection(), parameters) == 1, let key
    else { throw CryptoError.invalidKey("\(type) public key rejected") }
    return key
  }
}

/// An owned `BIGNUM`.
final class BigNumber {
  let pointer: OpaquePointer

  /// From big-endian unsigned bytes.
  init(_ bytes: [UInt8]) throws {
    try LibCrypto.require()
    guard let count = Int32(exactly: bytes.count),
      let pointer = bytes.withNonNullBytes({ bytes, _ in BN_bin2bn(bytes, count, nil) })
    else { throw CryptoError.openSSLFailure("BN_bin2bn") }
    self.pointer = pointer
  }

  deinit {
    BN_free(pointer)
  }
}
