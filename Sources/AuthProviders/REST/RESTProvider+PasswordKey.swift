import AuthConfig
import AuthCrypto
import AuthHTTP

extension RESTProvider {
  /// `{password}` as this API takes it: as typed, or encrypted with its RSA public key.
  func passwordToSend(_ password: String) async throws -> String {
    guard let passwordEncryption else { return password }
    let provider = self
    return try await passwordEncryption.encrypt(password) { url in try await provider.fetchPublicKey(url) }
  }

  /// The server's RSA public key at `url`, on the API's origin (checked when the config loaded); fetched with the
  /// same transport, origin rules and timeout as every other request of this profile.
  func fetchPublicKey(_ url: String) async throws -> RSAPublicKey {
    let request = HTTPRequest(
      method: .get, url: url, headers: config.headers.map { HTTPHeader($0.name, $0.value) }, body: nil,
      redirects: .followSameOrigin(max: 3), idempotent: true)
    let response = try await send(request)
    try StatusRule.plain.check(response, "rest password key")
    do {
      return try RSAPublicKey(pem: String(decoding: response.body, as: UTF8.self))
    } catch {
      throw ProviderError(.badResponse, "rest password key is not an RSA public key in PEM")
    }
  }
}
