import Foundation

/// The delegate "queue" of the client's session: runs each delegate callback at once, on the thread
/// that delivers it, instead of queueing it.
///
/// FoundationNetworking has no flow control between libcurl and the delegate: libcurl reads as
/// fast as the socket allows and every chunk becomes one queued operation holding its bytes. A
/// fast server (here, one on loopback) filled a serial queue with 200 MB of chunks before the
/// callback that crossed the 1 MiB cap even ran. Run inline, a callback finishes before libcurl
/// reads the next chunk, so bytes past the cap are dropped as they arrive, never kept.
///
/// - Important: callbacks then run on the session's internal work queue, inside libcurl's
///   callbacks. They must not block, and must not call `URLSessionTask.cancel()` directly: it
///   starts with `workQueue.sync` on that same queue. `SessionDelegate` cancels from another queue.
final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
  // No state of its own; OperationQueue's is guarded by its own lock.

  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    block()
  }
}
