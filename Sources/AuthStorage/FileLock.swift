import Glibc

/// An exclusive flock(2) on a file, polled with LOCK_NB up to a deadline.
///
/// Each acquisition opens its own descriptor: flock belongs to the open file description, so two threads of
/// one process exclude each other exactly as two processes do, and the kernel drops the lock when the holder
/// dies, however it dies.
enum FileLock {
  /// Holds the lock on `path` (created 0600 inside `directory`, itself created 0700) while `body` runs.
  /// - Throws: `StorageError.unavailable` ("lock timeout …") when the lock stays taken past `timeout`.
  static func withLock<T>(_ path: String, in directory: String, timeout: Duration, _ body: () throws -> T) throws
    -> T
  {
    let fd = try openLockFile(path, in: directory)
    defer { release(fd) }
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while try !tryLock(fd, path) {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { throw timedOut(path, timeout) }
      sleep(min(pause, left))
      pause = min(pause * 2, .milliseconds(50))
    }
    return try body()
  }

  /// The async form: waits with `Task.sleep`, so a caller holding the lock across network I/O blocks no thread.
  /// - Throws: `CancellationError` if the task is cancelled while waiting.
  static func withLock<T>(
    _ path: String, in directory: String, timeout: Duration, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
  ) async throws -> T {
    let fd = try openLockFile(path, in: directory)
    defer { release(fd) }
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while try !tryLock(fd, path) {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { throw timedOut(path, timeout) }
      try await Task.sleep(for: min(pause, left))
      pause = min(pause * 2, .milliseconds(50))
    }
    return try await body()
  }

  /// Unlocks explicitly before closing: a child forked meanwhile (by us or any library) shares the open file
  /// description until it execs, and a bare close() would leave the lock held through that copy.
  static func release(_ fd: Int32) {
    flock(fd, LOCK_UN)
    close(fd)
  }

  /// Takes `operation` (`LOCK_SH` or `LOCK_EX`) on `path`, waiting up to `timeout`, and returns the descriptor
  /// that holds it, for a lock held longer than one closure; `release` ends it.
  /// - Throws: `StorageError.unavailable` ("lock timeout …") when it stays taken past `timeout`.
  static func hold(_ path: String, in directory: String, operation: Int32, timeout: Duration) throws -> Int32 {
    let fd = try openLockFile(path, in: directory)
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    do {
      while try !tryLock(fd, path, operation) {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw timedOut(path, timeout) }
        sleep(min(pause, left))
        pause = min(pause * 2, .milliseconds(50))
      }
    } catch {
      close(fd)
      throw error
    }
    return fd
  }

  private static func tryLock(_ fd: Int32, _ path: String, _ operation: Int32 = LOCK_EX) throws -> Bool {
    while true {
      if flock(fd, operation | LOCK_NB) == 0 { return true }
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK: return false
      default: throw StorageError.unavailable("cannot lock \(path): \(FileSystem.errnoText(errno))")
      }
    }
  }

  private static func openLockFile(_ path: String, in directory: String) throws -> Int32 {
    try StateDirectory.create(directory, mode: 0o700)
    guard let found = FileSystem.lstatus(directory), FileSystem.isDirectory(found), found.st_uid == geteuid() else {
      throw StorageError.unavailable("lock directory \(directory) is not a directory owned by this user")
    }
    if found.st_mode & 0o7777 != 0o700 { chmod(directory, 0o700) }
    let fd = FileSystem.open(path, O_RDWR | O_CREAT, 0o600)
    guard fd >= 0 else {
      if errno == ELOOP { throw StorageError.unavailable("lock file \(path) is a symlink; refusing to use it") }
      throw StorageError.unavailable("cannot open lock file \(path): \(FileSystem.errnoText(errno))")
    }
    var status = stat()
    do {
      guard fstat(fd, &status) == 0 else {
        throw StorageError.unavailable("cannot stat lock file \(path): \(FileSystem.errnoText(errno))")
      }
      try FileSystem.checkPrivateFile(status, path, "lock file")
      _ = try FileSystem.tightenFile(fd: fd, status, path)
    } catch {
      close(fd)
      throw error
    }
    return fd
  }

  private static func timedOut(_ path: String, _ timeout: Duration) -> StorageError {
    .unavailable("lock timeout: \(path) stayed locked by another holder for \(timeout)")
  }

  private static func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}
