import Glibc

/// Reads the config file with POSIX calls (no Foundation in this module).
enum ConfigFile {
  /// The file's bytes, or nil when nothing exists at `path`.
  /// - Throws: `ConfigError` when the file exists but is not a readable regular file, or is over `limit` bytes.
  static func read(_ path: String, limit: Int) throws(ConfigError) -> [UInt8]? {
    // O_NONBLOCK: opening a FIFO for reading would otherwise block until a writer appears, hanging start-up.
    // It changes nothing for the regular files we go on to accept.
    let fd = open(path)
    guard fd >= 0 else {
      let code = errno
      // ENOTDIR: a parent is a file (say ~/.config is one), so there is no config at that path either.
      if code == ENOENT || code == ENOTDIR { return nil }
      throw unreadable(path, "cannot open the file: \(errorText(code))")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw unreadable(path, "cannot read the file: \(errorText(errno))") }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw unreadable(path, "is a directory, not a file")
    default: throw unreadable(path, "is not a regular file")
    }
    guard status.st_size <= limit else { throw tooLarge(path, limit) }
    return try readAll(fd, path, limit: limit)
  }

  private static func open(_ path: String) -> Int32 {
    while true {
      let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      if fd >= 0 || errno != EINTR { return fd }
    }
  }

  /// Reads to the end, stopping past `limit`: the size from `fstat` is checked, but the file may grow meanwhile.
  private static func readAll(_ fd: Int32, _ path: String, limit: Int) throws(ConfigError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count == 0 { return bytes }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        throw unreadable(path, "cannot read the file: \(errorText(code))")
      }
      bytes.append(contentsOf: chunk[0..<count])
      if bytes.count > limit { throw tooLarge(path, limit) }
    }
  }

  static func tooLarge(_ path: String, _ limit: Int) -> ConfigError {
    ConfigError(kind: .tooLarge, file: path, message: "is larger than \(limit) bytes")
  }

  private static func unreadable(_ path: String, _ message: String) -> ConfigError {
    ConfigError(kind: .unreadable, file: path, message: message)
  }

  private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
