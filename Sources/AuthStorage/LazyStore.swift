import Synchronization

/// Opens the store on first use instead of at start-up.
///
/// Hosts that only `validate` never pay for opening SQLite and the key, and an unusable state
/// directory becomes a `storage_unavailable` answer on the requests that need it — while the
/// rest of the protocol keeps working. A failed open is retried by the next request, so fixing
/// the directory needs no restart.
package final class LazyStore: Sendable {
  private let open: @Sendable () throws -> Store
  private let opened = Mutex<Store?>(nil)

  package init(_ open: @escaping @Sendable () throws -> Store) { self.open = open }

  /// The store when it is open and nobody is opening it at this moment; nil rather than wait.
  package var openedIfFree: Store? { opened.withLockIfAvailable { $0 } ?? nil }

  /// - Throws: `StorageError` from opening.
  package func get() throws -> Store {
    try opened.withLock { opened in
      if let opened { return opened }
      let store = try open()
      opened = store
      return store
    }
  }
}
