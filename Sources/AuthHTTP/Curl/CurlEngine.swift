internal import CCurl
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libcurl's multi interface for the whole process, so connections (and HTTP/2 streams) are reused per origin
/// across requests and profiles, with a thread of its own that waits for the network.
///
/// The thread blocks in `epoll_wait` on exactly the sockets libcurl asks for and a timer descriptor set to
/// libcurl's next timeout: a request stalled at the server costs no CPU while it waits. The multi handle is
/// behind a lock rather than owned by that thread, so a request starts on the caller's thread: `submit` hands the
/// transfer to libcurl, which sends it on a kept-alive connection before `submit` returns, and the thread wakes
/// only when the answer arrives. (Handing it over to the thread instead cost a wake-up per request.) The tasks of
/// remote requests may run on that thread too (`executor`): then the answer resumes its task where it arrived.
final class CurlEngine: Sendable {
  /// Started by the first remote request of the process; every client shares it.
  static let shared: Result<CurlEngine, HTTPError> = LibCurl.shared.flatMap(start)

  let curl: LibCurl
  /// The loop thread's kernel id, once it runs: tests read its CPU time in `/proc/self/task/<id>/stat`.
  let threadID = Atomic<Int32>(0)
  private let multi: Mutex<CurlMulti>
  private let epoll: Int32
  private let timer: Int32

  /// Runs the tasks of remote requests on this engine's thread (`HTTPThreadExecutor`).
  let executor: HTTPThreadExecutor
  /// Easy handles of finished transfers, for the next ones.
  let handles: EasyHandlePool
  /// Set once `shared` has started an engine: `running` must not be the one to load libcurl.
  private static let started = Atomic<Bool>(false)

  /// The shared engine if a request already started it; nil before that (or when it could not start).
  static var running: CurlEngine? {
    guard started.load(ordering: .acquiring) else { return nil }
    return try? shared.get()
  }

  private init(
    curl: LibCurl, multi: consuming sending CurlMulti, epoll: Int32, timer: Int32, executor: HTTPThreadExecutor
  ) {
    self.curl = curl
    self.multi = Mutex(multi)
    self.epoll = epoll
    self.timer = timer
    self.executor = executor
    handles = EasyHandlePool(curl: curl)
  }

  private static func start(_ curl: LibCurl) -> Result<CurlEngine, HTTPError> {
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    let timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    guard epoll >= 0, timer >= 0, auth_epoll_watch(epoll, timer, CURL_POLL_IN) == 0, let executor = HTTPThreadExecutor(),
      auth_epoll_watch(epoll, executor.wakeDescriptor, CURL_POLL_IN) == 0
    else {
      return .failure(HTTPError(.transportUnavailable, "could not set up epoll for the HTTP thread"))
    }
    guard let handle = curl.multiInit() else {
      return .failure(HTTPError(.transportUnavailable, "curl_multi_init failed"))
    }
    let engine = CurlEngine(
      curl: curl, multi: CurlMulti(curl: curl, handle: handle, epoll: epoll, timer: timer), epoll: epoll, timer: timer,
      executor: executor)
    guard DetachedThread.start({ engine.run() }) else {
      return .failure(HTTPError(.transportUnavailable, "could not start the HTTP thread"))
    }
    started.store(true, ordering: .releasing)
    return .success(engine)
  }

  /// Starts `transfer` on this thread; its outcome arrives through the transfer itself.
  func submit(_ transfer: CurlTransfer) {
    let done = multi.withLock { multi -> [(CurlTransfer, CURLcode)] in
      // Cancelled before it started: nothing to send.
      guard !transfer.isFinished else { return [] }
      guard multi.add(transfer) else { return [(transfer, CURLE_FAILED_INIT)] }
      multi.act(on: CURL_SOCKET_TIMEOUT, bits: 0)
      return multi.finished()
    }
    complete(done)
  }

  /// Stops `transfer` if it is still running: its easy handle leaves the multi handle now, and the connection it
  /// used is closed rather than reused.
  func cancel(_ transfer: CurlTransfer) {
    multi.withLock { $0.remove(transfer) }
  }

  /// Outside the lock: reading the response's head is the caller's work, not the multi handle's.
  private func complete(_ done: [(CurlTransfer, CURLcode)]) {
    for (transfer, code) in done { transfer.complete(code) }
  }

  /// The HTTP thread's name, as `ps -L`, `top -H` and `perf` show it.
  static let threadName = "auth-http"

  private func run() {
    auth_thread_name(Self.threadName)
    threadID.store(auth_thread_id(), ordering: .releasing)
    let capacity = 16
    var fds = [Int32](repeating: 0, count: capacity)
    var bits = [Int32](repeating: 0, count: capacity)
    while true {
      executor.runQueued()
      let count = Int(auth_epoll_wait(epoll, &fds, &bits, Int32(capacity)))
      // Interrupted by a signal: wait again.
      guard count > 0 else { continue }
      executor.awake(signalled: fds[0..<count].contains(executor.wakeDescriptor))
      let done = multi.withLock { multi -> [(CurlTransfer, CURLcode)] in
        for index in 0..<count {
          if fds[index] == executor.wakeDescriptor {
            continue
          } else if fds[index] == timer {
            auth_timer_clear(timer)
            multi.act(on: CURL_SOCKET_TIMEOUT, bits: 0)
          } else {
            multi.act(on: fds[index], bits: bits[index])
          }
        }
        return multi.finished()
      }
      complete(done)
    }
  }
}
