#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthProtocol
import Synchronization

/// The requests running in tasks: admission against the in-flight limit, per-profile
/// ordering of session changes, cancellation by id, and draining at shutdown.
final class InFlightRequests: Sendable {
  private struct Entry {
    let id: RequestID?
    let task: Task<Void, Never>
  }

  private struct State {
    var entries: [UInt64: Entry] = [:]
    var nextToken: UInt64 = 0
    /// The last session-changing task queued per profile; the next one waits for it.
    var profileTails: [String: (token: UInt64, task: Task<Void, Never>)] = [:]
  }

  private let limit: Int
  private let state = Mutex(State())

  init(limit: Int) { self.limit = limit }

  /// Starts `operation` in a task, or returns false when `limit` requests are already running.
  ///
  /// With a `serialProfile`, the task first waits for the previous session change of that
  /// profile: registration happens here, on the reader thread, so order is arrival order.
  func start(id: RequestID?, serialProfile: String?, _ operation: @escaping @Sendable () async -> Void) -> Bool {
    state.withLock { state in
      guard state.entries.count < limit else { return false }
      let token = state.nextToken
      state.nextToken += 1
      let previous = serialProfile.flatMap { state.profileTails[$0]?.task }
      let task = Task { [self] in
        await previous?.value
        await operation()
        finish(token: token, profile: serialProfile)
      }
      state.entries[token] = Entry(id: id, task: task)
      if let serialProfile { state.profileTails[serialProfile] = (token, task) }
      return true
    }
  }

  private func finish(token: UInt64, profile: String?) {
    state.withLock { state in
      state.entries[token] = nil
      if let profile, state.profileTails[profile]?.token == token { state.profileTails[profile] = nil }
    }
  }

  /// Cancels every running request with this id (ids should be unique, but hosts make mistakes).
  func cancel(id: RequestID) {
    let tasks = state.withLock { state in state.entries.values.filter { $0.id == id }.map(\.task) }
    for task in tasks { task.cancel() }
  }

  var count: Int { state.withLock { $0.entries.count } }

  /// Waits until nothing is running or the timeout passes; then cancels what is left and
  /// gives it a moment to answer `cancelled`.
  func drain(timeoutMilliseconds: Int) {
    if waitUntilIdle(milliseconds: timeoutMilliseconds) { return }
    let tasks = state.withLock { $0.entries.values.map(\.task) }
    for task in tasks { task.cancel() }
    _ = waitUntilIdle(milliseconds: 200)
  }

  private func waitUntilIdle(milliseconds: Int) -> Bool {
    var waited = 0
    while count > 0 {
      if waited >= milliseconds { return false }
      usleep(2_000)
      waited += 2
    }
    return true
  }
}
