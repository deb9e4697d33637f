import Synchronization

/// Work a request still has to do once its answer is out, collected while the request runs.
///
/// The dispatcher sets `current` around a request, writes the answer, then runs what was collected; the request counts
/// as in flight until that is done, so a shutdown waits for it, and the profile's later requests are ordered after
/// it. A caller that sets none (a test driving `SessionService` directly) gets the work done before the call
/// returns, as part of it.
package final class AfterAnswer: Sendable {
  @TaskLocal package static var current: AfterAnswer?

  private struct Work {
    var pending: [@Sendable () async -> Void] = []
    /// Set once `finish` found nothing left: work arriving later (from a task that inherited `current`) runs at once.
    var finished = false
  }

  private let work = Mutex(Work())

  package init() {}

  /// Runs `body` after the answer when the current request collects such work; else now.
  static func run(_ body: @escaping @Sendable () async -> Void) async {
    let collected = current?.work.withLock { work in
      guard !work.finished else { return false }
      work.pending.append(body)
      return true
    }
    if collected != true { await body() }
  }

  /// Runs what was collected, in order, including anything that work collects in turn.
  package func finish() async {
    while let next = work.withLock({ work -> (@Sendable () async -> Void)? in
      guard !work.pending.isEmpty else {
        work.finished = true
        return nil
      }
      return work.pending.removeFirst()
    }) {
      await next()
    }
  }
}
