internal import COpenSSL

/// One AES-256-GCM operation on an `EVP_CIPHER_CTX`, freed (and its key schedule wiped) on release.
///
/// Unchecked: used by one thread at a time, either for one operation or under `AESGCMKey`'s lock.
final class CipherContext: @unchecked Sendable {
  private let context: OpaquePointer
  private let encrypting: Bool

  /// - Parameter nonce: nil leaves the context keyed but without a nonce: `restart(nonce:)` starts each operation.
  init(encrypting: Bool, key: SecretBytes, nonce: [UInt8]?) throws {
    try LibCrypto.require()
    guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSLFailure("EVP_CIPHER_CTX_new") }
    self.context = context
    self.encrypting = encrypting
    // AES-GCM's default IV length is 12 bytes, the only length AESGCM accepts, so no IV-length ctrl is needed.
    let status = key.withUnsafeBytes { key in
      key.withNonNullBytes { keyBytes, _ in
        Self.withOptionalBytes(nonce) { nonceBytes in
          encrypting
            ? EVP_EncryptInit_ex(context, FetchedAlgorithm.aes256GCM.pointer, nil, keyBytes, nonceBytes)
            : EVP_DecryptInit_ex(context, FetchedAlgorithm.aes256GCM.pointer, nil, keyBytes, nonceBytes)
        }
      }
    }
    guard status == 1 else { throw CryptoError.openSSLFailure("AES-256-GCM init") }
  }

  /// Starts a new operation under the same key with `nonce`: the key schedule and GHASH key stay, the running
  /// state (counter, associated data, tag) starts over.
  func restart(nonce: UnsafeRawBufferPointer) throws {
    precondition(nonce.count == AESGCM.nonceByteCount, "AES-GCM nonce must be 12 bytes")
    let iv = nonce.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let status =
      encrypting
      ? EVP_EncryptInit_ex(context, nil, nil, nil, iv)
      : EVP_DecryptInit_ex(context, nil, nil, nil, iv)
    guard status == 1 else { throw CryptoError.openSSLFailure("AES-256-GCM restart") }
  }

  private static func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> R) -> R {
    guard let bytes else { return body(nil) }
    return bytes.withNonNullBytes { pointer, _ in body(pointer) }
  }

  deinit {
    EVP_CIPHER_CTX_free(context)
  }

  /// Authenticates `data` without encrypting it. Skipped when empty: a NULL-input update means "finish" to GCM.
  func authenticateOnly(_ data: [UInt8]) throws {
    guard !data.isEmpty else { return }
    var written: Int32 = 0
    let status = try data.withNonNullBytes { bytes, count in
      encrypting
        ? EVP_EncryptUpdate(context, nil, &written, bytes, try Self.cLength(count))
        : EVP_DecryptUpdate(context, nil, &written, bytes, try Self.cLength(count))
    }
    guard status == 1 else { throw CryptoError.openSSLFailure("AES-256-GCM associated data") }
  }

  /// Encrypts or decrypts `input` into `output`, which must hold exactly `input.count` bytes (GCM is a stream mode).
  func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) throws {
    precondition(output.count == input.count, "GCM output must match the input length")
    guard !input.isEmpty else { return }
    var written: Int32 = 0
    let status = try input.withNonNullBytes { bytes, count in
      encrypting
        ? EVP_EncryptUpdate(context, output.baseAddress, &written, bytes, try Self.cLength(count))
        : EVP_DecryptUpdate(context, output.baseAddress, &written, bytes, try Self.cLength(count))
    }
    guard status == 1, Int(written) == input.count else { throw CryptoError.openSSLFailure("AES-256-GCM update") }
  }

  /// Sets the expected tag before `finish()` when decrypting.
  func setExpectedTag(_ tag: [UInt8]) throws {
    var tag = tag
    let status = tag.withUnsafeMutableBytes { tag in
      EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), tag.baseAddress)
    }
    guard status == 1 else { throw CryptoError.openSSLFailure("AES-256-GCM set tag") }
  }

  /// Completes the operation. When decrypting, `false` means the tag did not match.
  func finish() -> Bool {
    // GCM writes no bytes here, but the API still wants somewhere to point.
    var scratch = [UInt8](repeating: 0, count: 16)
    var written: Int32 = 0
    let status = scratch.withUnsafeMutableBufferPointer { scratch in
      encrypting
        ? EVP_EncryptFinal_ex(context, scratch.baseAddress, &written)
        : EVP_DecryptFinal_ex(context, scratch.baseAddress, &written)
    }
    return status == 1 && written == 0
  }

  /// Copies the tag out after an encrypting `finish()`.
  func tag(into output: UnsafeMutableBufferPointer<UInt8>) throws {
    let status = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(output.count), output.baseAddress)
    guard status == 1 else { throw CryptoError.openSSLFailure("AES-256-GCM get tag") }
  }

  private static func cLength(_ count: Int) throws -> Int32 {
    guard let length = Int32(exactly: count) else {
      throw CryptoError.invalidParameters("AES-256-GCM input over 2 GiB")
    }
    return length
  }
}
