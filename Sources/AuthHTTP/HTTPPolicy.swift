/// Time, size and retry bounds for `URLSessionHTTPClient`, which `WorkerHTTPClient` hands to its worker when it
/// starts it. The defaults (10 s to connect, 30 s in all, 1 MiB of body) bound how long a host waits and how
/// much a hostile server can make us hold; tests shrink them.
package struct HTTPPolicy: Sendable, Equatable {
  /// Longest wait to connect, and longest silence between bytes once connected. FoundationNetworking
  /// counts it in whole seconds, so it is rounded up to at least 1 s.
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
