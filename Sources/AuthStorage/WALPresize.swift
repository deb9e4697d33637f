import Glibc

/// Gives the WAL that the scrub emptied room for the commits that follow it. A commit that extends the -wal file
/// allocates blocks and changes its size, so its `fdatasync` also waits for a journal commit of the file system
/// (ext4: about 120 µs more than a commit that overwrites bytes the file already has). Truncated to zero bytes by
/// every scrub, the WAL would make every login's commit pay that on its answer's path.
///
/// Zeros past the last frame are safe: SQLite reads frames from the start of the WAL and stops at the first one
/// whose salts differ from the header's, whose page number is 0 (as in a frame of zeros) or whose checksum does not
/// match, which is also how it ignores the old frames it leaves past the end when it restarts a WAL in place.
enum WALPresize {
  /// Room for 15 frames of 4 KiB pages: the scrub's own commit (one) and a few commits after it (a login writes
  /// three), so those overwrite bytes the file already has. Below the store's `journal_size_limit` (1 MiB), which
  /// would cut a longer WAL back at the first commit after a restart.
  static let bytes = 64 * 1024

  /// Appends zero bytes to the file at `path` until it is `size` bytes long: only beyond its current end, never
  /// over existing bytes, and only when it is shorter; a missing file is not created, a symlink not followed.
  ///
  /// Call it holding SQLite's WAL write lock (after BEGIN IMMEDIATE), so that no other connection appends frames
  /// meanwhile; the commit that follows writes over the start of the zeros, and its sync makes the new size durable.
  /// A failure leaves the file as it was or longer by some zeros, both harmless: this is only an optimisation.
  static func extend(_ path: String, to size: Int = bytes) {
    guard size > 0, fileSizeLimitAllows(size) else { return }
    let fd = FileSystem.open(path, O_WRONLY | O_NONBLOCK)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, FileSystem.isRegular(status) else { return }
    let start = Int(status.st_size)
    guard start < size else { return }
    let zeros = [UInt8](repeating: 0, count: size - start)
    zeros.withUnsafeBytes { buffer in
      var end = start
      while end < size {
        let written = pwrite(fd, buffer.baseAddress! + (end - start), size - end, off_t(end))
        if written > 0 {
          end += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }

  /// A process whose file size limit is below `size` would get SIGXFSZ (by default fatal) for a write that SQLite
  /// itself would never have made.
  private static func fileSizeLimitAllows(_ size: Int) -> Bool {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else { return false }
    return limit.rlim_cur >= rlim_t(size)
  }
}
