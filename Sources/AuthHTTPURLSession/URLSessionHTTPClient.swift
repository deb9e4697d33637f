import AuthHTTP
import AuthSupport
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPClient` over FoundationNetworking's URLSession (libcurl on Linux): ephemeral, no cookie
/// store or cache of its own, TLS verification always on, redirects decided here rather than by
/// URLSession.
///
/// It runs in the `auth-sidecar-http` worker, behind `WorkerHTTPClient`: merely linking FoundationNetworking
/// costs every process about 6.5 ms at exec (CoreFoundation's constructors, libcurl and some 30 libraries),
/// which the sidecar's cold start cannot afford.
///
/// Logs method, host, path, status and timing at debug — never a query string, header, cookie or
/// body, which carry codes, tokens and passwords.
package final class URLSessionHTTPClient: HTTPClient {
  let policy: HTTPPolicy
  /// Wall clock, for `Retry-After` dates only; deadlines use the monotonic `ContinuousClock`.
  let clock: any Clock
  let log: Logger
  let rules: RetryRules
  let delegate = SessionDelegate()
  /// Created on the first `send`: a session costs about 1.5 ms and 5 MB, which a host that only
  /// validates input should never pay.
  private let lazySession = Mutex<URLSession?>(nil)

  package init(policy: HTTPPolicy = HTTPPolicy(), clock: any Clock = SystemClock(), log: Logger) {
    self.policy = policy
    self.clock = clock
    self.log = log
    rules = RetryRules(policy)
  }

  deinit {
    // The session holds its delegate until invalidated; in-flight tasks belong to callers that are
    // gone, since each `send` keeps the client alive while it runs.
    lazySession.withLock { $0?.invalidateAndCancel() }
  }

  /// Whether the URLSession exists yet (for tests of the lazy creation).
  var hasSession: Bool { lazySession.withLock { $0 != nil } }

  func session() -> URLSession {
    lazySession.withLock { session in
      if let session { return session }
      if HTTPEnvironment.hasDebugVariables {
        // The executable should have scrubbed these at start; late is better than leaking headers.
        HTTPEnvironment.scrubDebugVariables()
        log.warning("URLSessionDebug variables were set; cleared before the first request")
      }
      let created = URLSession(
        configuration: Self.configuration(policy), delegate: delegate, delegateQueue: InlineOperationQueue())
      session = created
      return created
    }
  }

  /// Nothing of ours reaches disk through Foundation: the default session writes persistent cookies to a file
  /// with default permissions (in the current directory when it cannot create its own folder) and caches up
  /// to 20 MB of responses on disk, tokens included. Our cookie jar lives in memory and in the sealed store.
  static func configuration(_ policy: HTTPPolicy) -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    configuration.urlCredentialStorage = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // Requests are sequential per login; a few connections cover a refresh racing a user fetch.
    configuration.httpMaximumConnectionsPerHost = 4
    configuration.timeoutIntervalForRequest = connectTimeoutSeconds(policy)
    configuration.timeoutIntervalForResource = policy.totalTimeout.timeInterval
    return configuration
  }

  /// FoundationNetworking truncates the request timeout to whole seconds (`Int(timeout) * 1000`), so a
  /// fraction would shorten it, and below 1 s make it zero.
  static func connectTimeoutSeconds(_ policy: HTTPPolicy) -> Double {
    max(1, policy.connectTimeout.timeInterval.rounded(.up))
  }

  package func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    var exchange = Exchange(try RequestTarget(request.url), request)
    try RequestValidation.check(request)
    guard !Task.isCancelled else { throw HTTPError(.cancelled, "cancelled before sending") }
    let deadline = ContinuousClock.now + policy.totalTimeout
    var followed = 0
    while true {
      let response = try await sendWithRetries(exchange, idempotent: request.idempotent, deadline: deadline)
      guard case .followSameOrigin(let limit) = request.redirects,
        let next = try exchange.redirected(by: response, followed: followed, limit: limit)
      else { return response }
      log.debug("http \(response.status) from \(exchange.logName): following to \(next.target.path)")
      exchange = next
      followed += 1
    }
  }
}
