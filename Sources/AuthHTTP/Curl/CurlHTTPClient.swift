import AuthSupport

/// `HTTPClient` on libcurl's multi interface (`CurlEngine`), in process.
///
/// Every transfer: TLS verification on (the system CA store, or the profile's `TLSSettings`), no cookie engine
/// (the caller's `CookieJar` is the only one), no redirect followed by libcurl (`send` follows same-origin ones
/// itself when the request allows it), `http`/`https` only, proxies only as `ProxySettings` decides. Connect,
/// idle and total timeouts (the policy's, or the request's own when shorter) are libcurl's own, the body cap is
/// enforced as bytes arrive.
///
/// Cheap to make: libcurl is loaded and its thread started on the first `send` of the process, so a host that
/// only validates input never maps it.
///
/// Logs method, host, path, status and timing at debug — never a query string, header, cookie or body, which
/// carry codes, tokens and passwords.
package final class CurlHTTPClient: HTTPClient {
  let policy: HTTPPolicy
  let tls: TLSSettings
  let proxy: ProxySettings
  /// Wall clock, for `Retry-After` dates only; deadlines use the monotonic `ContinuousClock`.
  let clock: any Clock
  let log: Logger
  let rules: RetryRules

  /// Why no request can be sent on this machine (libcurl missing, with how to install it), or nil; for a
  /// start-up check of a config with remote profiles. Does not load libcurl when it is installed.
  package static var unavailableReason: String? { LibCurl.missingReason() }

  /// Where a task that sends remote requests should run: on the HTTP thread, resumed where its answers arrive
  /// (`HTTPThreadExecutor`), once the first request of the process has started that thread; nil before, so a host
  /// that never sends one never loads libcurl.
  package static var preferredExecutor: (any StartingThreadExecutor)? { CurlEngine.running?.executor }

  package init(
    policy: HTTPPolicy = HTTPPolicy(), tls: TLSSettings = TLSSettings(), proxy: ProxySettings = .environment(),
    clock: any Clock = SystemClock(), log: Logger
  ) {
    self.policy = policy
    self.tls = tls
    self.proxy = proxy
    self.clock = clock
    self.log = log
    rules = RetryRules(policy)
  }

  package func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    // A configured endpoint's URL was parsed and checked on its first request already (`CheckedURLs`).
    var exchange: Exchange
    if let known = CheckedURLs.shared.target(for: request.url) {
      exchange = Exchange(known, request, targetChecked: true)
    } else {
      exchange = Exchange(try RequestTarget(request.url), request)
    }
    try RequestValidation.check(request)
    guard !Task.isCancelled else { throw HTTPError(.cancelled, "cancelled before sending") }
    let engine = try CurlEngine.shared.get()
    let deadline = ContinuousClock.now + min(policy.totalTimeout, request.timeout ?? policy.totalTimeout)
    var followed = 0
    while true {
      let response = try await sendWithRetries(exchange, on: engine, idempotent: request.idempotent, deadline: deadline)
      guard case .followSameOrigin(let limit) = request.redirects,
        let next = try exchange.redirected(by: response, followed: followed, limit: limit)
      else { return response }
      log.debug("http \(response.status) from \(exchange.logName): following to \(next.target.path)")
      exchange = next
      followed += 1
    }
  }
}
