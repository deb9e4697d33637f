#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthProtocol
import AuthSession
import AuthSupport
import Synchronization

/// The requests running in tasks: admission against the in-flight limit, per-profile
/// ordering of session changes, cancellation by id, and draining at shutdown.
final class InFlightRequests: Sendable {
  private struct Entry {
    let id: RequestID?
    let task: Task<Void, Never>
    /// Cancelled first at shutdown: a person may never act on it.
    let waitsForUser: Bool
  }

  private struct State {
    var entries: [UInt64: Entry] = [:]
    /// Started and not yet answered: what the limit counts. An entry outlives its count by the
    /// moment it takes to deliver the answer, which `drain` must still wait for.
    var unanswered = 0
    var nextToken: UInt64 = 0
    /// Per profile: the last session change queued and the reads queued since it. A read waits
    /// for that change; the next change waits for it and for those reads.
    var profiles: [String: ProfileQueue] = [:]
  }

  /// Changed in place in `State.profiles`: a copy taken out and put back shared its storage with the dictionary's
  /// and made every request copy it.
  private struct ProfileQueue {
    var lastChange: (token: UInt64, completion: Completion)?
    /// In arrival order; a handful at most.
    var readsSinceChange: [(token: UInt64, completion: Completion)] = []
    var isEmpty: Bool { lastChange == nil && readsSinceChange.isEmpty }

    /// Queues request `token` as `ordering` says, adding to `predecessors` what it must wait for.
    mutating func enqueue(
      _ token: UInt64, _ completion: Completion, ordering: SessionOrdering, predecessors: inout [Completion]
    ) {
      if let change = lastChange { predecessors.append(change.completion) }
      if ordering == .changesSession {
        predecessors.append(contentsOf: readsSinceChange.map(\.completion))
        lastChange = (token, completion)
        readsSinceChange = []
      } else {
        readsSinceChange.append((token, completion))
      }
    }

    mutating func remove(_ token: UInt64) {
      if lastChange?.token == token { lastChange = nil }
      if let index = readsSinceChange.firstIndex(where: { $0.token == token }) { readsSinceChange.remove(at: index) }
    }
  }

  private let limit: Int
  private let state = Mutex(State())

  init(limit: Int) { self.limit = limit }

  /// Starts `operation` in a task, or returns false when `limit` requests are already running.
  ///
  /// With a profile, the task is ordered against that profile's other requests by `plan.ordering`:
  /// a session change waits for every earlier request on the profile, a read waits for the
  /// earlier session changes (reads still run concurrently with each other). Registration
  /// happens here, on the reader thread, so the order is arrival order.
  /// The request stops counting against the limit before its answer goes to `deliver`, so a
  /// host that sends its next request the moment it reads an answer finds the slot free.
  /// - Parameter executor: where the task prefers to run (`Server.Placement`); nil for the cooperative pool.
  func start(
    id: RequestID?, profile: String?, plan: CallPlan, on executor: (any TaskExecutor)? = nil,
    _ operation: @escaping @Sendable () async -> OutgoingMessage?,
    deliver: @escaping Reply = { _ in }
  ) -> Bool {
    let ordering = plan.ordering
    return state.withLock { state in
      guard state.unanswered < limit else { return false }
      state.unanswered += 1
      let token = state.nextToken
      state.nextToken += 1
      let completion = Completion()
      var predecessors: [Completion] = []
      if let profile, ordering != .independent {
        state.profiles[profile, default: ProfileQueue()].enqueue(
          token, completion, ordering: ordering, predecessors: &predecessors)
      }
      let task = Task(executorPreference: executor) { [self] in
        // Cancelling a queued request stops its wait: `operation` then answers `cancelled` at once.
        for predecessor in predecessors { await predecessor.wait(interruptible: true) }
        let afterAnswer = AfterAnswer()
        let answer = await AfterAnswer.$current.withValue(afterAnswer) { await operation() }
        self.state.withLock { $0.unanswered -= 1 }
        if let answer { deliver(answer) }
        // Still in flight: a shutdown waits for this, and so do the profile's later requests.
        await afterAnswer.finish()
        // Later requests on the profile are ordered after this one's predecessors too, even when
        // a cancellation cut its own wait short.
        for predecessor in predecessors { await predecessor.wait(interruptible: false) }
        completion.signal()
        finish(token: token, profile: profile)
      }
      state.entries[token] = Entry(id: id, task: task, waitsForUser: plan.waitsForUser)
      return true
    }
  }

  private func finish(token: UInt64, profile: String?) {
    state.withLock { state in
      state.entries[token] = nil
      guard let profile, let index = state.profiles.index(forKey: profile) else { return }
      state.profiles.values[index].remove(token)
      if state.profiles.values[index].isEmpty { state.profiles.remove(at: index) }
    }
  }

  /// Cancels every running request with this id (ids should be unique, but hosts make mistakes).
  func cancel(id: RequestID) {
    let tasks = state.withLock { state in state.entries.values.filter { $0.id == id }.map(\.task) }
    for task in tasks { task.cancel() }
  }

  var count: Int { state.withLock { $0.entries.count } }

  /// Cancels the requests waiting for a person (nobody will act on them now), then waits until
  /// nothing is running or the timeout passes; then cancels what is left and gives it a moment
  /// to answer `cancelled`.
  func drain(timeoutMilliseconds: Int) {
    let waiting = state.withLock { $0.entries.values.filter(\.waitsForUser).map(\.task) }
    for task in waiting { task.cancel() }
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
