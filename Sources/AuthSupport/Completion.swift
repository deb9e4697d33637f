import Synchronization

/// Signalled once, when something is over (a request, a write after an answer); any number of tasks wait for it.
///
/// Unlike `await task.value`, waiting for it can be cut short by cancelling the waiter, so a request queued behind a
/// slow login answers `cancelled` as soon as it is cancelled instead of when the login ends; and what it marks needs no
/// task of its own.
package final class Completion: Sendable {
  private struct State {
    var done = false
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextKey: UInt64 = 0
  }

  private let state = Mutex(State())

  package init() {}

  package func signal() {
    let waiters = state.withLock { state in
      state.done = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns when signalled or, if `interruptible`, as soon as the calling task is cancelled.
  package func wait(interruptible: Bool) async {
    let key = state.withLock { state in
      state.nextKey += 1
      return state.nextKey
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state in
          if state.done || (interruptible && Task.isCancelled) { return true }
          state.waiters[key] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      guard interruptible else { return }
      // Runs before or after the continuation is stored; the lock makes exactly one side resume it.
      state.withLock { $0.waiters.removeValue(forKey: key) }?.resume()
    }
  }
}
