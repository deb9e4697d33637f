import Synchronization

/// A counter shared with the sender's hook.
final class Counter: Sendable {
  private let storage = Mutex(0)
  var value: Int { storage.withLock { $0 } }
  func increment() -> Int {
    storage.withLock { count in
      count += 1
      return count
    }
  }
}
