import AuthConfig
import AuthCrypto
import AuthHTTP
import Synchronization

/// `{password}` encrypted with the server's RSA public key, for APIs that refuse it in clear.
///
/// A key given inline was decoded once already when the config loaded. A key at `publicKeyURL` is fetched at the
/// first login that needs it and kept for the life of the process: one fetch shared by concurrent logins, and
/// forgotten again when it failed, so the next login tries anew rather than failing for good.
final class RESTPasswordEncryption: Sendable {
  private let settings: RESTProviderConfig.PasswordEncryption
  private let inlineKey: RSAPublicKey?
  private let fetched = Mutex<Task<RSAPublicKey, any Error>?>(nil)

  init(_ settings: RESTProviderConfig.PasswordEncryption) {
    self.settings = settings
    if case .pem(let pem) = settings.key { inlineKey = try? RSAPublicKey(pem: pem) } else { inlineKey = nil }
  }

  /// The password as the server expects it: encrypted, then base64.
  /// - Parameter fetch: gets the key from `url` (the provider's transport, with its origin rules and timeout).
  func encrypt(_ password: String, fetch: @escaping @Sendable (String) async throws -> RSAPublicKey) async throws
    -> String
  {
    let key = try await publicKey(fetch)
    let padding: RSAPublicKey.Padding = settings.padding == .pkcs1 ? .pkcs1 : .oaepSHA256
    let sealed: [UInt8]
    do {
      sealed = try key.encrypt(Array(password.utf8), padding: padding)
    } catch {
      // Only a password longer than one RSA block of this key gets here: this API cannot take it.
      throw ProviderError(.unsupported, "password too long for the server's \(key.bits)-bit RSA key")
    }
    switch settings.encoding {
    case .base64: return Base64.encode(sealed)
    }
  }

  private func publicKey(_ fetch: @escaping @Sendable (String) async throws -> RSAPublicKey) async throws
    -> RSAPublicKey
  {
    switch settings.key {
    case .pem:
      guard let inlineKey else { throw ProviderError(.unsupported, "configured RSA public key unusable") }
      return inlineKey
    case .url(let url):
      let task = fetched.withLock { current in
        if let current { return current }
        let task = Task { try await fetch(url) }
        current = task
        return task
      }
      do {
        return try await task.value
      } catch {
        fetched.withLock { if $0 == task { $0 = nil } }
        throw error
      }
    }
  }
}
