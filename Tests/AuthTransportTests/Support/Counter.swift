import Synchronization

/// A number shared with another thread.
final class Counter: Sendable {
  private let storage = Mutex(0)
  var value: Int { storage.withLock { $0 } }
  func set(_ value: Int) { storage.withLock { $0 = value } }
}
