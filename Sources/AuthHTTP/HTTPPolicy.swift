/// Time, size and retry bounds for `CurlHTTPClient`. The defaults are the product's; tests shrink them.
package struct HTTPPolicy: Sendable, Equatable {
  /// Longest wait to connect, and longest silence between bytes once connected. libcurl counts the silence in
  /// whole seconds, so for it this is rounded up to at least 1 s.
  package var connectTimeout: Duration = .seconds(10)
  /// Longest a whole `send` may take: every attempt, redirect and backoff included.
  package var totalTimeout: Duration = .seconds(30)
  /// Largest response body accepted; the transfer stops as soon as it is passed.
  package var maxResponseBytes: Int = 1 << 20
  /// Attempts per request (and per redirect hop), the first one included.
  package var maxAttempts: Int = 3
  /// The first backoff ceiling; it doubles after each failure, up to `backoffCap`.
  package var backoffBase: Duration = .milliseconds(250)
  package var backoffCap: Duration = .seconds(4)
  /// Longest `Retry-After` honoured; a longer one is handed back to the caller at once.
  package var maxRetryAfter: Duration = .seconds(30)

  package init() {}
}
