import AuthHTTP
import AuthSupport
import Synchronization

/// The one `WorkerHTTPClient` every remote profile shares, made on the first request: a host that only
/// validates input, or uses only local profiles, never builds the HTTP stack. (The client in turn starts the
/// `auth-sidecar-http` worker, where URLSession lives, on its first send: this binary links no Foundation.)
final class LazyHTTPClient: HTTPClient {
  private let make: @Sendable () -> WorkerHTTPClient
  private let client = Mutex<WorkerHTTPClient?>(nil)

  /// Takes no clock, not even in test mode: the worker reads `Retry-After` dates against the real wall clock,
  /// the one servers date them by.
  init(log: Logger) {
    make = { WorkerHTTPClient(policy: HTTPPolicy(), log: log) }
  }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let shared = client.withLock { client in
      if let client { return client }
      let created = make()
      client = created
      return created
    }
    return try await shared.send(request)
  }
}
