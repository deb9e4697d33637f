#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthSupport
import CSubprocess
import Synchronization

/// One running worker: its process, this end of its socket, the requests waiting for an answer, and the
/// thread that reads the answers.
///
/// The reader thread is also the thread that spawns the worker, and it lives until the worker is reaped.
/// That is what makes the worker's PR_SET_PDEATHSIG sound: Linux sends it when the *thread* that created
/// the process exits, so a worker spawned from a pool thread would be killed whenever that thread retired.
final class WorkerConnection: Sendable {
  typealias Waiter = CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>

  private struct Pending {
    let waiter: Waiter
    /// Past this, the worker has stopped answering (it keeps the request's own deadline itself).
    let deadline: ContinuousClock.Instant
  }

  private struct State {
    var waiters: [Int64: Pending] = [:]
    /// A `watch()` task is running: one at a time, and only while requests wait.
    var watching = false
    /// Set once the worker is gone: every waiter got it, and every later request gets it at once.
    var ended: HTTPError?
    /// The watchdog killed the worker: no new request may use it, even before the reader has seen it die.
    var retired = false
    /// `close()` was called: the worker's end is expected, not worth a warning.
    var closing = false
  }

  let pid: pid_t
  private let socket: Int32
  private let log: Logger
  private let maxLineBytes: Int
  private let state = Mutex(State())
  /// True while `socket` is open. Held across each write, so lines never interleave, and so that the reader
  /// cannot close the descriptor under a writer, whose write would then go to whatever reused its number.
  private let writer = Mutex(true)

  private init(pid: pid_t, socket: Int32, log: Logger, maxLineBytes: Int) {
    self.pid = pid
    self.socket = socket
    self.log = log
    self.maxLineBytes = maxLineBytes
  }

  var isRunning: Bool { state.withLock { $0.ended == nil && !$0.retired } }

  /// Spawns the worker from a new reader thread, waits for the outcome (a millisecond or two: the spawn
  /// returns once the child has exec'd), and sends `hello`.
  /// - Throws: `HTTPError.networkUnavailable` when the worker cannot be started.
  static func start(path: String, hello: WorkerMessage, log: Logger, maxLineBytes: Int) throws(HTTPError)
    -> WorkerConnection
  {
    let handoff = Handoff<Result<WorkerConnection, HTTPError>>()
    let started = DetachedThread.start {
      let result: Result<WorkerConnection, HTTPError>
      do throws(HTTPError) {
        let (pid, socket) = try WorkerSpawn.spawn(path: path)
        result = .success(WorkerConnection(pid: pid, socket: socket, log: log, maxLineBytes: maxLineBytes))
      } catch {
        result = .failure(error)
      }
      handoff.put(result)
      if case .success(let connection) = result { connection.readUntilEnd() }
    }
    guard started else { throw HTTPError(.networkUnavailable, "no thread for the HTTP worker") }
    let connection = try handoff.take().get()
    log.debug("http worker started (pid \(connection.pid))")
    // Should this fail, the reader sees the worker's end and fails the requests that follow.
    _ = connection.write(hello.line)
    return connection
  }

  /// Sends `line` (a `send` with this `id`) and waits for its answer, or until `deadline`. Cancelling the
  /// calling task answers `cancelled` at once and tells the worker to stop the transfer.
  func request(_ id: Int64, _ line: [UInt8], deadline: ContinuousClock.Instant) async -> Result<HTTPResponse, HTTPError>
  {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: Waiter) in
        let (ended, startWatch) = state.withLock { state -> (HTTPError?, Bool) in
          if let ended = state.ended { return (ended, false) }
          state.waiters[id] = Pending(waiter: waiter, deadline: deadline)
          defer { state.watching = true }
          return (nil, !state.watching)
        }
        if let ended {
          waiter.resume(returning: .failure(ended))
          return
        }
        if startWatch { Task { await self.watch() } }
        if !write(line) {
          abandon(id, HTTPError(.networkUnavailable, "HTTP worker (pid \(pid)) is not reading"), tellWorker: false)
        }
        // Cancelled after `send` checked but before the waiter was registered: the handler found nothing.
        if Task.isCancelled { abandon(id, HTTPError(.cancelled, "calling task cancelled"), tellWorker: true) }
      }
    } onCancel: {
      abandon(id, HTTPError(.cancelled, "calling task cancelled"), tellWorker: true)
    }
  }

  /// Answers request `id` with `error` if it is still waiting; with `tellWorker`, asks the worker to stop
  /// it (its late answer is then dropped).
  func abandon(_ id: Int64, _ error: HTTPError, tellWorker: Bool) {
    guard let pending = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
    if tellWorker { _ = write(WorkerMessage.cancel(id: id).line) }
    pending.waiter.resume(returning: .failure(error))
  }

  /// Fails requests whose worker stopped answering. One task per connection, checking once a second while
  /// requests wait and ending when none does: a task per request (a timer armed, then a wake to cancel it)
  /// cost about 50 µs of every request's latency on two cores, for a check that almost never fires.
  private func watch() async {
    while true {
      try? await Task.sleep(for: .seconds(1))
      let now = ContinuousClock.now
      let (overdue, done) = state.withLock { state -> ([Int64], Bool) in
        let overdue = state.waiters.filter { $0.value.deadline <= now }.map(\.key)
        let done = state.waiters.count == overdue.count
        if done { state.watching = false }
        return (overdue, done)
      }
      for id in overdue {
        abandon(id, HTTPError(.timeout, "the HTTP worker (pid \(pid)) gave no answer in time"), tellWorker: true)
      }
      // Its own deadline passed two seconds ago without an answer: the worker is wedged or stopped, and would
      // hold every later request the same way. The reader then fails the rest, and the next request starts
      // a new one.
      if !overdue.isEmpty {
        log.warning("http worker (pid \(pid)) stopped answering; killing it")
        // Retire it first, so that a request arriving while the reader notices the death starts a new worker
        // instead of failing on this one.
        state.withLock { $0.retired = true }
        kill(pid, SIGKILL)
      }
      if done { return }
    }
  }

  /// Ends the worker: shutting the socket down wakes the reader and gives the worker end of file on stdin.
  func close() {
    state.withLock { $0.closing = true }
    writer.withLock { open in
      if open { _ = shutdown(socket, Int32(SHUT_RDWR)) }
    }
  }

  private func write(_ bytes: [UInt8]) -> Bool {
    writer.withLock { open in open && writeAll(socket, bytes, socket: true) }
  }

  // MARK: - The reader thread

  private func readUntilEnd() {
    var reader = LineReader(fd: socket, maxLineBytes: maxLineBytes)
    var fault: String?
    reading: while true {
      switch reader.next() {
      case .line(let bytes):
        do {
          try deliver(WorkerMessage(line: bytes))
        } catch {
          fault = "sent an unreadable line (\(error.detail))"
          break reading
        }
      case .tooLong:
        fault = "sent a line over \(maxLineBytes) bytes"
        break reading
      case .end:
        break reading
      }
    }
    let how: String
    if let fault {
      kill(pid, SIGKILL)
      _ = reap()
      how = fault
    } else {
      how = reap()
    }
    end(HTTPError(.networkUnavailable, "HTTP worker (pid \(pid)) \(how)"))
  }

  private func deliver(_ message: WorkerMessage) throws(WorkerProtocolError) {
    let id: Int64
    let result: Result<HTTPResponse, HTTPError>
    switch message {
    case .response(let answered, let response):
      id = answered
      result = .success(response)
    case .failure(let answered, let error):
      id = answered
      result = .failure(error)
    case .log(let level, let message):
      log.log(level, message)
      return
    case .hello, .send, .cancel:
      throw WorkerProtocolError(id: nil, detail: "a message only the parent sends")
    }
    // Nil when the request was cancelled or timed out here already.
    state.withLock { $0.waiters.removeValue(forKey: id) }?.waiter.resume(returning: result)
  }

  /// Waits for the worker to exit. It exits as soon as its stdin ends; one that does not within two
  /// seconds is wedged, and is killed. Polled in 1 ms steps: end of file arrives while the dying process
  /// closes its descriptors, a moment before it can be reaped, and the waiters are held until then.
  private func reap() -> String {
    var status: Int32 = 0
    for _ in 0..<2000 {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { return WorkerSpawn.describe(status: status) }
      if reaped < 0 && errno != EINTR { return "ended" }
      usleep(1000)
    }
    kill(pid, SIGKILL)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return "did not exit at end of input and was killed"
  }

  private func end(_ error: HTTPError) {
    let (waiters, closing) = state.withLock { state in
      state.ended = error
      defer { state.waiters = [:] }
      return (state.waiters.values.map(\.waiter), state.closing)
    }
    writer.withLock { open in
      if open { closeDescriptor(socket) }
      open = false
    }
    if closing {
      log.debug("http worker (pid \(pid)) stopped")
    } else {
      log.warning("\(error.detail); it is started again on the next request")
    }
    for waiter in waiters { waiter.resume(returning: .failure(error)) }
  }
}

/// `close(2)`, which `WorkerConnection.close()` hides inside the class.
private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}
