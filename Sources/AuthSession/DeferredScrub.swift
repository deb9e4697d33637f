import AuthStorage
import AuthSupport
import Dispatch
import Synchronization

/// Runs the scrub a login's or a refresh's write left pending (`Store.scrubPendingSecrets`) a moment after it, once
/// for every such write within that moment, on the maintenance thread (`Blocking.submit`).
///
/// A scrub reopens a second connection, checkpoints, truncates and restarts the WAL: four or five syncs and about
/// 1 ms of CPU. Run at once, it competed for the two cores and the disk with the answer it followed and with the
/// host's next request (a `getUser` right after a `login`); merged, a burst of logins or refreshes pays for one.
/// The replaced tokens stay in the WAL that much longer, sealed like every secret in the store, and they still work
/// at their server meanwhile anyway. A process that ends before the scrub leaves it to the next secret-removing
/// write or the next open of the store, as one killed right after its answer always did.
final class DeferredScrub: Sendable {
  /// How long after the first pending write the scrub runs: past a host's follow-up requests, short enough that
  /// the replaced tokens leave the WAL before a person could act on anything.
  static let defaultDelayMilliseconds = 300

  private let delayMilliseconds: Int
  /// A scrub is queued and has not started: later writes ride on it.
  private let queued = Atomic<Bool>(false)

  init(delayMilliseconds: Int = DeferredScrub.defaultDelayMilliseconds) { self.delayMilliseconds = delayMilliseconds }

  /// Queues a scrub of `stores` unless one is queued already. The wait is a Dispatch timer, not a sleep on the
  /// maintenance thread: that one thread serves every store of the process, and sleeping there would queue each
  /// store's scrub behind every other's wait.
  func schedule(_ stores: LazyStore) {
    guard !queued.exchange(true, ordering: .acquiringAndReleasing) else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delayMilliseconds)) { [self] in
      Blocking.submit { [self] in
        // Cleared before the scrub starts: a write that commits during the scrub may come after its look at the
        // pending flag, so it queues the next one.
        queued.store(false, ordering: .releasing)
        _ = try? stores.get().scrubPendingSecrets()
      }
    }
  }
}
