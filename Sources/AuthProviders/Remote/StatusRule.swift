import AuthHTTP

/// How the remote providers (rest, oauth2, form) read the status of a final answer, so that one status means
/// one thing whichever provider got it:
/// - a status in `success` (2xx unless the request says otherwise): the provider goes on to read the body;
/// - 429 and 5xx: the server's trouble, never an answer about the user (`RemoteFailures`), so the session is kept;
/// - a status in `refused`: the server refuses what was presented (a password, a token, a cookie): `refusal`;
/// - anything else: `badResponse`, with the status for the host when `reportsStatus`.
///
/// Where a protocol says more than the status — OAuth2's token endpoint tells a spent refresh token
/// (`invalid_grant`) from a refused client in its body, and a form post succeeds by its cookies and redirects —
/// the provider takes only the 429/5xx rule from `RemoteFailures` and decides the rest itself.
struct StatusRule: Sendable {
  var success: Range<Int> = 200..<300
  var refused: Set<Int> = []
  var refusal: ProviderError.Code = .badResponse
  /// The form provider reports a site's odd status to the host (e.g. a 403 from a CSRF check can be acted on).
  var reportsStatus = false

  /// A login's password refused: 400, 401 or 403.
  static let login = StatusRule(refused: [400, 401, 403], refusal: .invalidCredentials)
  /// A refresh token refused: 400, 401 or 403; the session is over.
  static let refresh = StatusRule(refused: [400, 401, 403], refusal: .sessionRejected)
  /// An access token refused by a resource (a user endpoint): 401; the caller may refresh and ask again.
  static let accessToken = StatusRule(refused: [401], refusal: .sessionRejected)
  /// A new account refused because it exists: 409.
  static let register = StatusRule(refused: [409], refusal: .alreadyExists(field: nil))
  /// Nothing presented can be refused: only a success will do.
  static let plain = StatusRule()

  /// - Parameter what: names the request in the diagnostics log (no URL query, no body, no secret).
  /// - Throws: `ProviderError` unless the status is a success.
  func check(_ response: HTTPResponse, _ what: String) throws {
    let status = response.status
    if success.contains(status) { return }
    if let failure = RemoteFailures.providerError(status: response) { throw failure }
    if refused.contains(status) { throw ProviderError(refusal, "\(what) refused with \(status)") }
    throw ProviderError(.badResponse, "\(what) answered \(status)", status: reportsStatus ? status : nil)
  }
}
