import Dispatch

/// Runs blocking work (password hashing, SQLite waiting on another process's lock) on a
/// dispatch thread instead of the cooperative pool.
///
/// The pool has one thread per core — two here. A 137 ms KDF or a 10 s busy wait on it would
/// stall every other task; on its own thread it delays only the request that needs it.
package enum Blocking {
  private static let queue = DispatchQueue(label: "auth-sidecar.blocking", attributes: .concurrent)

  package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }
}
