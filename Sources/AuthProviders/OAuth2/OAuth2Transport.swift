import AuthCrypto
import AuthHTTP

/// The provider's requests: a per-profile deadline on top of the HTTP client's own, client authentication on
/// the token and revocation endpoints, and no retry of a POST that may have reached the server.
struct OAuth2Transport: Sendable {
  let http: any HTTPClient
  let clientID: String
  /// HTTP Basic (`client_secret_basic`) when present; otherwise `client_id` goes in the body (public client).
  let clientSecret: SecretBytes?
  let timeout: Duration

  /// A GET: idempotent, so the client may retry it after a timeout or a 502/504.
  /// - Parameter followRedirects: only for requests without credentials (discovery, JWKS).
  func get(_ url: String, bearer: SecretBytes? = nil, followRedirects: Bool = false) async throws -> HTTPResponse {
    var headers = [HTTPHeader("Accept", "application/json")]
    if let bearer {
      headers.append(
        HTTPHeader("Authorization", "Bearer " + bearer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }))
    }
    return try await send(
      HTTPRequest(
        method: .get, url: url, headers: headers, redirects: followRedirects ? .followSameOrigin(max: 2) : .refuse))
  }

  /// A client-authenticated form POST (RFC 6749 §2.3.1). Not idempotent: a replayed refresh would spend a
  /// rotated refresh token, so it is retried only when it never left (refused connection, DNS) or the
  /// server declined it outright (429, 503).
  func post(_ url: String, _ form: FormBody) async throws -> HTTPResponse {
    var form = form
    var headers = [
      HTTPHeader("Accept", "application/json"), HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
    ]
    if let clientSecret {
      headers.append(HTTPHeader("Authorization", FormBody.basicAuthorization(clientID: clientID, secret: clientSecret)))
    } else {
      form.append("client_id", .text(clientID))
    }
    return try await send(
      HTTPRequest(method: .post, url: url, headers: headers, body: form.bytes, redirects: .refuse, idempotent: false))
  }

  /// Sends within `timeout`, mapping a missing answer to `ProviderError` (see `RemoteFailures`).
  /// - Throws: `ProviderError`, or `CancellationError` when the calling task is cancelled.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await RemoteFailures.send(request, with: http, within: timeout)
  }
}
