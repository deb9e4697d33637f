internal import CCurl
import AuthSupport
import Synchronization

/// Runs tasks on `CurlEngine`'s thread, between its waits for the network.
///
/// A remote request is mostly waiting: a task on the cooperative pool sends, sleeps, and is woken by the HTTP
/// thread when the answer arrives, one thread hop per exchange — about as long again as the rest of the
/// sidecar's own work, after a wait of a few milliseconds has let both threads' cores go idle. A task that prefers
/// this executor is resumed where the answer arrived: the continuation is queued on the very thread that finished
/// the transfer, which runs it before it next waits, and sends the next request itself.
///
/// Whatever such a task does without awaiting holds up every other transfer for as long: a store commit is accepted
/// here, as it is on the two-thread pool, and so is its sync when the answer waits for nothing else (0.5–3 ms on
/// the machines measured); a login's token write, made while its user request is out, goes to the cooperative pool
/// and its sync to `Blocking`, so that the user's response is read meanwhile. Anything that may wait longer (a lock
/// held by another process, a password hash) goes to `Blocking`, as everywhere.
///
/// The thread that starts such a task may also run it up to its first wait (`startHere`): the request is then sent
/// by the thread that read it, and only its answer resumes it here.
final class HTTPThreadExecutor: StartingThreadExecutor {
  private struct Queue {
    var jobs: [UnownedJob] = []
    /// The thread is in (or about to enter) its wait, with nothing queued: a new job must wake it.
    var idle = false
    /// Threads inside `startHere`, which run what is queued before they leave: no job needs a wake-up meanwhile.
    var starters = 0
  }

  /// An eventfd in the engine's epoll set: readable when a job was queued while the thread was idle.
  let wakeDescriptor: Int32
  private let queue = Mutex(Queue())

  /// - Returns: nil when no eventfd could be made.
  init?() {
    wakeDescriptor = auth_eventfd_create()
    guard wakeDescriptor >= 0 else { return nil }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let wake = queue.withLock { queue in
      queue.jobs.append(job)
      guard queue.idle, queue.starters == 0 else { return false }
      queue.idle = false
      return true
    }
    // A job queued by the thread itself (a transfer it just finished) or while it is busy is found before the
    // thread next waits; only an idle thread needs the wake-up.
    if wake { auth_eventfd_signal(wakeDescriptor) }
  }

  func startHere<T>(_ start: () -> T) -> T {
    queue.withLock { $0.starters += 1 }
    let started = start()
    // Leaving is decided under the lock that finds the queue empty: a job queued after that wakes the thread.
    runJobs { $0.starters -= 1 }
    return started
  }

  /// Runs every queued job, and the jobs those queue, until none is left; then marks the thread idle. Called
  /// by the engine's thread only, right before it waits.
  func runQueued() {
    runJobs { $0.idle = true }
  }

  /// Runs queued jobs on the calling thread until the queue is empty, then applies `whenEmpty` in the same
  /// critical section. Another thread may run jobs of this executor at the same time: tasks are independent, and
  /// what they share has locks of its own.
  private func runJobs(whenEmpty: (inout Queue) -> Void) {
    while true {
      let batch = queue.withLock { queue -> [UnownedJob] in
        guard !queue.jobs.isEmpty else {
          whenEmpty(&queue)
          return []
        }
        defer { queue.jobs.removeAll(keepingCapacity: true) }
        return queue.jobs
      }
      guard !batch.isEmpty else { return }
      for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
  }

  /// The thread woke up: jobs queued from now on are found before it waits again. Clears the eventfd when it was
  /// the reason.
  func awake(signalled: Bool) {
    if signalled { auth_eventfd_clear(wakeDescriptor) }
    queue.withLock { $0.idle = false }
  }
}
