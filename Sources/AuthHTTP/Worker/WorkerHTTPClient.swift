import AuthSupport
import Synchronization

/// `HTTPClient` that sends through `URLSessionHTTPClient` in a worker process, `auth-sidecar-http`.
///
/// Why a process: linking FoundationNetworking costs every start of the sidecar about 6.5 ms
/// (CoreFoundation's constructors, libcurl and some 30 libraries run at exec, used or not), against a cold
/// start of about 2 ms without it. So the sidecar links no Foundation at all, and only a host that talks to a
/// remote provider pays for it, once, on its first request.
///
/// The worker starts on the first `send` and serves every later one, many at a time (answers are matched by
/// id). Retries, redirects, timeouts and the body cap all happen in the worker, under `policy`. URLs and
/// requests are checked here first, so a bad one fails before any process exists. A worker that died, or
/// could not be started, fails the requests it held with `networkUnavailable`, and the next `send` starts
/// a new one. Cancelling the calling task answers `cancelled` at once and stops the transfer in the worker.
///
/// The worker's log lines come back over its socket and go to `log`, at `log`'s level: like this client,
/// they name method, host, path, status and timing, never a query, header, cookie or body.
package final class WorkerHTTPClient: HTTPClient {
  package let policy: HTTPPolicy
  private let log: Logger
  private let executable: String?
  private let current = Mutex<WorkerConnection?>(nil)
  private let lastID = Atomic<Int64>(0)

  /// How much longer than `policy.totalTimeout` a request waits for the worker's answer before giving up
  /// on it: the worker keeps the deadline itself, so this only catches a worker that stopped answering.
  static let answerGrace: Duration = .seconds(2)

  /// - Parameter executable: the worker binary; nil looks for `$AUTH_SIDECAR_HTTP_BIN`, then for
  ///   `auth-sidecar-http` next to the running executable.
  package init(policy: HTTPPolicy = HTTPPolicy(), log: Logger, executable: String? = nil) {
    self.policy = policy
    self.log = log
    self.executable = executable
  }

  deinit {
    // In-flight `send`s keep the client alive, so nothing is waiting: the worker just sees end of input.
    current.withLock { $0?.close() }
  }

  /// The running worker's pid, or nil before the first request and after the worker ended.
  package var workerProcessID: Int32? {
    current.withLock { connection in connection.flatMap { $0.isRunning ? $0.pid : nil } }
  }

  package func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    _ = try RequestTarget(request.url)
    try RequestValidation.check(request)
    guard !Task.isCancelled else { throw HTTPError(.cancelled, "cancelled before sending") }
    let connection = try running()
    let id = lastID.add(1, ordering: .relaxed).newValue
    let deadline = ContinuousClock.now + min(policy.totalTimeout, .seconds(86_400)) + Self.answerGrace
    return try await connection.request(id, WorkerMessage.send(id: id, request: request).line, deadline: deadline)
      .get()
  }

  /// The running worker, started when there is none: on the first request, or the first after one died.
  /// Concurrent callers wait on the lock, so one worker is started, not one each.
  private func running() throws(HTTPError) -> WorkerConnection {
    try current.withLock { (current) throws(HTTPError) -> WorkerConnection in
      if let connection = current, connection.isRunning { return connection }
      let connection = try WorkerConnection.start(
        path: WorkerSpawn.executablePath(explicit: executable), hello: .hello(policy: policy, logLevel: log.level),
        log: log, maxLineBytes: Self.maxAnswerBytes(policy))
      current = connection
      return connection
    }
  }

  /// The longest answer line a worker can legitimately send: the largest body in base64, plus a generous
  /// allowance for headers. A longer line means a broken worker, which is then stopped.
  static func maxAnswerBytes(_ policy: HTTPPolicy) -> Int {
    let body = min(max(policy.maxResponseBytes, 0), Int(Int32.max))
    return (body + 2) / 3 * 4 + (4 << 20)
  }
}
