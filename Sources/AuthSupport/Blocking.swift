#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import CProcessControl
import Dispatch
import Synchronization

/// Runs blocking work (SQLite waiting on another process's lock, password hashing) on threads
/// of its own, never on the cooperative pool or Dispatch's global queues.
///
/// The cooperative pool has one thread per core — two here — and on Linux it shares its
/// threads with Dispatch's global queues. A 137 ms KDF or a 10 s busy wait there stalls every
/// other task and every timer; on a pool thread of its own it delays only its own request.
package enum Blocking {
  /// Store work: short, mostly waiting for the disk or another process's lock. It keeps the process's priority,
  /// because it may hold the store's write lock: starved of CPU on a busy machine, it would make every other
  /// request (and every other process sharing the store) wait behind it.
  private static let pool = ThreadPool(maxThreads: 8)

  /// Password hashing runs at the lowest priority (nice 19): four logins hashing at once on two cores would
  /// otherwise take most of the CPU from the reader and the inline methods, and `validate`, called on every
  /// keystroke, would fall to a quarter of its rate. A hash that waits for a free core costs a login a little
  /// latency; a stalled `validate` costs every keystroke. Hashing holds no lock, so its slowness delays only itself.
  private static let cpuBoundPool = ThreadPool(maxThreads: 8, nice: 19)

  package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await run(work, on: pool)
  }

  /// Like `run(_:)`, for CPU-bound work that holds no lock (a password hash), at the lowest priority.
  package static func runCPUBound<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await run(work, on: cpuBoundPool)
  }

  private static func run<T: Sendable>(
    _ work: @escaping @Sendable () throws -> T, on pool: ThreadPool
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      pool.submit { continuation.resume(with: Result { try work() }) }
    }
  }
}

extension Blocking {
  /// Runs `work` on a thread of its own, at the process's priority, and returns at once: short blocking work nobody
  /// waits for, which may hold a lock that others wait for (a scrub holds the store's write lock across a few
  /// syncs). At nice 19 on a loaded machine it could hold that lock while starved of CPU, and the next login's commit
  /// would wait for it; it spends its time waiting for the disk, so it takes little CPU from anyone.
  package static func submit(_ work: @escaping @Sendable () -> Void) { maintenance.submit(work) }

  private static let maintenance = ThreadPool(maxThreads: 1)
}

/// A small pool of detached POSIX threads, started on demand up to `maxThreads`; jobs beyond
/// that wait in arrival order.
final class ThreadPool: Sendable {
  typealias Job = @Sendable () -> Void

  private struct State {
    var jobs: [Job] = []
    var threads = 0
    var idle = 0
  }

  private let maxThreads: Int
  /// The scheduling priority of the workers (0 to 19, higher runs less), 0 to keep the process's.
  private let nice: Int32
  private let state = Mutex(State())
  /// Counts queued jobs; idle workers sleep on it.
  private let queued = DispatchSemaphore(value: 0)

  init(maxThreads: Int, nice: Int32 = 0) {
    self.maxThreads = maxThreads
    self.nice = nice
  }

  func submit(_ job: @escaping Job) {
    let spawn = state.withLock { state in
      state.jobs.append(job)
      guard state.idle == 0, state.threads < maxThreads else { return false }
      state.threads += 1
      return true
    }
    if spawn { startWorker() }
    queued.signal()
  }

  private func startWorker() {
    let context = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { context in
      let pool = Unmanaged<ThreadPool>.fromOpaque(context!).takeRetainedValue()
      pool.work()
      return nil
    }, context)
    if started == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<ThreadPool>.fromOpaque(context).release()
      state.withLock { $0.threads -= 1 }
    }
  }

  private func work() {
    // Best effort: a system that refuses leaves the worker at the process's priority, which is only slower.
    if nice > 0 { _ = auth_set_thread_nice(nice) }
    while true {
      state.withLock { $0.idle += 1 }
      queued.wait()
      let job = state.withLock { state -> Job in
        state.idle -= 1
        return state.jobs.removeFirst()
      }
      job()
    }
  }
}
