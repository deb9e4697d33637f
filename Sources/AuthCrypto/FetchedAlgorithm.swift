internal import COpenSSL

/// libcrypto algorithm handles, fetched once per process.
///
/// OpenSSL 3 resolves the legacy getters (`EVP_sha256()`, `EVP_aes_256_gcm()`) through a locked provider lookup
/// on every init; an explicitly fetched handle skips that. Fetched EVP_MD and EVP_CIPHER objects are immutable
/// and reference counted, and OpenSSL documents them as safe to share between threads, hence `@unchecked`.
struct FetchedAlgorithm: @unchecked Sendable {
  let pointer: OpaquePointer

  static let sha256 = FetchedAlgorithm(digest: "SHA256")
  static let aes256GCM = FetchedAlgorithm(cipher: "AES-256-GCM")

  private init(digest name: String) {
    guard let md = EVP_MD_fetch(nil, name, nil) else { OpenSSLErrorQueue.trap("fetching \(name)") }
    pointer = md
  }

  private init(cipher name: String) {
    guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else { OpenSSLErrorQueue.trap("fetching \(name)") }
    pointer = cipher
  }
}
