internal import COpenSSL

/// JWS carries ECDSA signatures as fixed-width `r ‖ s` (RFC 7518 §3.4); OpenSSL verifies DER
/// (`ECDSA-Sig-Value`). The conversion goes through libcrypto's own `ECDSA_SIG` encoder.
enum ECDSASignature {
  /// `nil` unless `raw` is exactly two `coordinateByteCount`-byte integers.
  static func der(fromRaw raw: [UInt8], coordinateByteCount: Int) -> [UInt8]? {
    guard raw.count == 2 * coordinateByteCount, let width = Int32(exactly: coordinateByteCount),
      let signature = ECDSA_SIG_new()
    else { return nil }
    defer { ECDSA_SIG_free(signature) }
    let (r, s) = raw.withNonNullBytes { bytes, _ in
      (BN_bin2bn(bytes, width, nil), BN_bin2bn(bytes + coordinateByteCount, width, nil))
    }
    // ECDSA_SIG_set0 takes ownership only when it succeeds.
    guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
      BN_free(r)
      BN_free(s)
      OpenSSLErrorQueue.clear()
      return nil
    }
    let length = i2d_ECDSA_SIG(signature, nil)
    guard length > 0 else {
      OpenSSLErrorQueue.clear()
      return nil
    }
    var der = [UInt8](repeating: 0, count: Int(length))
    let written = der.withUnsafeMutableBufferPointer { buffer in
      var cursor = buffer.baseAddress
      return i2d_ECDSA_SIG(signature, &cursor)
    }
    return written == length ? der : nil
  }
}
