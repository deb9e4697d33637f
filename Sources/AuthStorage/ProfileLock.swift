import AuthCrypto

/// A cross-process exclusive lock per profile: flock on `<state dir>/locks/<hex SHA-256 of profile>.lock`.
///
/// A refresh holds it across re-read → network refresh → write, so sidecars sharing one store make one network
/// refresh per expiry. Hashing the name keeps any profile string (slashes, dots, NUL) a safe file name.
package struct ProfileLock: Sendable {
  package static let defaultTimeout: Duration = .seconds(15)

  /// `<state dir>/locks`
  package let directory: String

  package init(stateDirectory: StateDirectory) {
    directory = stateDirectory.file("locks")
  }

  package func path(for profile: String) -> String {
    "\(directory)/\(Hex.encode(SHA256.hash(Array(profile.utf8)))).lock"
  }

  /// Runs `body` while holding `profile`'s lock, waiting up to `timeout` for it.
  /// - Throws: `StorageError.unavailable` ("lock timeout …"), or whatever `body` throws.
  /// - Important: blocks the calling thread while waiting, for threads and command-line tools. A distinct name
  ///   (not an overload) so async code cannot pick it by accident just because its closure has no `await`.
  package func withLockBlocking<T>(_ profile: String, timeout: Duration = defaultTimeout, _ body: () throws -> T)
    throws -> T
  {
    try FileLock.withLock(path(for: profile), in: directory, timeout: timeout, body)
  }

  /// Runs `body` while holding `profile`'s lock, waiting up to `timeout` without blocking a thread.
  /// - Throws: `StorageError.unavailable` ("lock timeout …"), `CancellationError`, or whatever `body` throws.
  package func withLock<T>(
    _ profile: String, timeout: Duration = defaultTimeout, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
  ) async throws -> T {
    try await FileLock.withLock(path(for: profile), in: directory, timeout: timeout, body)
  }
}
