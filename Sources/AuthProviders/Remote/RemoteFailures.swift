import AuthHTTP

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> Substring {
    var text = Substring(self)
    while text.first == set { text = text.dropFirst() }
    while text.last == set { text = text.dropLast() }
    return text
  }
}

/// How the remote providers (REST, OAuth2, form) turn transport failures and server statuses
/// into `ProviderError`: one table, so every provider answers a down, slow or overloaded server
/// the same way. None of these ever ends a session.
enum RemoteFailures {
  /// A request that produced no response.
  static func providerError(_ error: HTTPError) -> ProviderError {
    switch error.code {
    case .networkUnavailable: return ProviderError(.networkUnavailable, error.detail)
    case .timeout: return ProviderError(.timeout, error.detail)
    case .tls: return ProviderError(.tlsError, error.detail)
    case .responseTooLarge, .redirectRefused, .corruptCookieJar: return ProviderError(.badResponse, error.detail)
    case .invalidURL, .insecureURL, .invalidRequest: return ProviderError(.unsupported, "configuration: \(error.detail)")
    case .cancelled: return ProviderError(.networkUnavailable, "cancelled")
    case .transportUnavailable: return ProviderError(.unsupported, error.detail)
    }
  }

  /// A final status that is the server's trouble, not an answer about the user: 429 (with its
  /// Retry-After in seconds when it gave one) and 5xx. Nil for statuses the provider interprets.
  static func providerError(status response: HTTPResponse) -> ProviderError? {
    switch response.status {
    case 429:
      // Seconds only; an HTTP-date (rare on auth APIs) leaves `retryAfter` out rather than guess.
      let retryAfter = response.header("retry-after").flatMap { Int64($0.trimmingCharacters(in: " ")) }
      return ProviderError(.rateLimited(retryAfter: retryAfter), "server answered 429")
    case 500...599: return ProviderError(.serverError(status: response.status), "server answered \(response.status)")
    default: return nil
    }
  }

  /// Sends `request` within `limit`, the profile's own bound (its client's policy is the same for every
  /// profile). The client keeps it with its own timer (`HTTPRequest.timeout`): no task group and no second timer
  /// per request, each a hop between threads.
  static func send(_ request: HTTPRequest, with client: any HTTPClient, within limit: Duration) async throws
    -> HTTPResponse
  {
    var bounded = request
    bounded.timeout = min(limit, request.timeout ?? limit)
    return try await send(bounded, with: client)
  }

  /// Sends `request`, mapping a missing response to `ProviderError` and rethrowing cancellation
  /// as such, so a cancelled request answers `cancelled`.
  static func send(_ request: HTTPRequest, with client: any HTTPClient) async throws -> HTTPResponse {
    do {
      return try await client.send(request)
    } catch {
      if error.code == .cancelled { throw CancellationError() }
      throw providerError(error)
    }
  }
}
