import Glibc

/// The POSIX calls AuthStorage needs, with errno turned into a `StorageError` that names the path (never contents).
enum FileSystem {
  /// A file's identity, so a handle can tell that the path now names another file (quarantined or replaced).
  struct Identity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }
  }

  static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// `0755`-style text for notes and messages.
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  static func lstatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
  }

  static func identity(of path: String) -> Identity? { lstatus(path).map(Identity.init) }

  static func isSymlink(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFLNK }
  static func isRegular(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFREG }
  static func isDirectory(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }

  /// Opens with `O_NOFOLLOW | O_CLOEXEC` added, retrying on EINTR. Returns -1 with `errno` set on failure.
  static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    while true {
      let fd = Glibc.open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode)
      if fd >= 0 || errno != EINTR { return fd }
    }
  }

  /// `fdatasync` of an existing file, through a descriptor of its own (the data of a file is synced whoever wrote it).
  static func syncData(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return fdatasync(fd) == 0
  }

  /// Refuses a file we did not create for ourselves: not a regular file, or owned by another user.
  /// Root is not exempt: a store owned by another uid would leak our secrets into their reach.
  static func checkPrivateFile(_ status: stat, _ path: String, _ what: String) throws {
    guard isRegular(status) else {
      throw StorageError.unavailable("\(what) \(path) is not a regular file; refusing to use it")
    }
    guard status.st_uid == geteuid() else {
      throw StorageError.unavailable(
        "\(what) \(path) is owned by uid \(status.st_uid), not by this user (uid \(geteuid())); refusing to use it")
    }
  }

  /// Makes an existing file owner-only (0600) if it is looser. Returns a note when it changed something.
  static func tightenFile(fd: Int32, _ status: stat, _ path: String) throws -> String? {
    let mode = status.st_mode & 0o7777
    guard mode != 0o600 else { return nil }
    guard fchmod(fd, 0o600) == 0 else {
      throw StorageError.unavailable("cannot set mode 0600 on \(path): \(errnoText(errno))")
    }
    return "tightened \(path) from mode \(octal(mode)) to 0600"
  }

  /// Makes a new directory entry durable: fsync on the file alone does not persist its name (ext4 and others).
  static func syncDirectory(_ path: String) throws {
    let fd = open(path, O_RDONLY | O_DIRECTORY)
    guard fd >= 0 else { throw StorageError.unavailable("cannot open \(path) to sync it: \(errnoText(errno))") }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw StorageError.unavailable("cannot sync \(path): \(errnoText(errno))") }
  }

  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws {
    var offset = 0
    while offset < bytes.count {
      let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw StorageError.unavailable("cannot write \(path): \(errnoText(errno))")
      }
      offset += written
    }
  }

  /// Reads at most `limit` bytes; the caller checks the size it expects.
  static func read(_ fd: Int32, limit: Int, _ path: String) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: limit)
    var count = 0
    while count < limit {
      let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, limit - count) }
      if got < 0 {
        if errno == EINTR { continue }
        throw StorageError.unavailable("cannot read \(path): \(errnoText(errno))")
      }
      if got == 0 { break }
      count += got
    }
    let result = Array(bytes[0..<count])
    // The buffer may hold key material; don't leave a second copy behind for the allocator to hand out.
    bytes.wipe()
    return result
  }
}
