import Glibc

/// A lock that says a store is open: every `Store` holds it shared for as long as it lives, and `Rekey` takes it
/// exclusively, so a store is never re-sealed under a process that keeps sealing with the old key (and no
/// process opens it halfway through). flock: released by the kernel when a holder dies, however it dies.
final class StoreInUse: Sendable {
  private let fd: Int32

  private init(fd: Int32) { self.fd = fd }

  deinit { FileLock.release(fd) }

  /// Waits while a `Rekey` runs, up to `timeout`.
  /// - Throws: `StorageError.unavailable` ("lock timeout …").
  static func shared(_ directory: StateDirectory, timeout: Duration = .seconds(15)) throws -> StoreInUse {
    let fd = try FileLock.hold(path(directory), in: directory.file("locks"), operation: LOCK_SH, timeout: timeout)
    return StoreInUse(fd: fd)
  }

  /// - Throws: `StorageError.unavailable` at once when another process has the store open.
  static func exclusive(_ directory: StateDirectory) throws -> StoreInUse {
    do {
      let fd = try FileLock.hold(path(directory), in: directory.file("locks"), operation: LOCK_EX, timeout: .zero)
      return StoreInUse(fd: fd)
    } catch let error as StorageError where error.message.hasPrefix("lock timeout") {
      throw StorageError.unavailable(
        "the store in \(directory.path) is open in another auth-sidecar process; stop every sidecar using this "
          + "state directory and run again (nothing was written)")
    }
  }

  private static func path(_ directory: StateDirectory) -> String { directory.file("locks/store-in-use.lock") }
}
