import Glibc

/// The private directory that holds the store, its key file and the profile locks.
///
/// Resolution order: an explicit path (`--state-dir`) > `AUTH_SIDECAR_STATE_DIR` > `$XDG_STATE_HOME/auth-sidecar`
/// > `$HOME/.local/state/auth-sidecar`. The directory is created 0700 (whatever the umask), and refused when it is
/// a symlink, not a directory, or owned by another user; a looser mode is tightened to 0700 and noted.
package struct StateDirectory: Sendable {
  /// Absolute path without a trailing slash.
  package let path: String
  /// Things worth a log line (e.g. a mode that was tightened); never secrets.
  package let notes: [String]

  /// Resolves, creates and checks the state directory.
  /// - Throws: `StorageError` `.invalidConfiguration` when no location can be derived, `.unavailable` when the
  ///   directory cannot be created or is unsafe.
  package init(explicitPath: String? = nil, environment: [String: String]) throws {
    try self.init(path: Self.resolvePath(explicitPath: explicitPath, environment: environment))
  }

  /// Creates and checks the directory at `path`.
  package init(path: String) throws {
    var path = Self.absolute(path)
    var notes: [String] = []
    try Self.create(path, mode: 0o700)
    path = Self.resolvingAncestors(path)
    let fd = FileSystem.open(path, O_RDONLY | O_DIRECTORY)
    guard fd >= 0 else {
      let code = errno
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR rather than ELOOP, so ask lstat which it was.
      if code == ELOOP || code == ENOTDIR, let found = FileSystem.lstatus(path) {
        let what = FileSystem.isSymlink(found) ? "is a symlink; refusing to use it" : "is not a directory"
        throw StorageError.unavailable("state directory \(path) \(what)")
      }
      throw StorageError.unavailable("cannot open state directory \(path): \(FileSystem.errnoText(code))")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw StorageError.unavailable("cannot stat state directory \(path): \(FileSystem.errnoText(errno))")
    }
    guard status.st_uid == geteuid() else {
      throw StorageError.unavailable(
        "state directory \(path) is owned by uid \(status.st_uid), not by this user (uid \(geteuid())); "
          + "refusing to keep secrets there")
    }
    let mode = status.st_mode & 0o7777
    if mode != 0o700 {
      // fchmod on the fd we checked, so a swapped path can't redirect the chmod.
      guard fchmod(fd, 0o700) == 0 else {
        throw StorageError.unavailable("cannot set mode 0700 on \(path): \(FileSystem.errnoText(errno))")
      }
      notes.append("changed state directory \(path) from mode \(FileSystem.octal(mode)) to 0700")
    }
    self.path = path
    self.notes = notes
  }

  /// The path the resolution order picks, without touching the disk.
  /// - Throws: `StorageError.invalidConfiguration` when none of the sources gives a path.
  package static func resolvePath(explicitPath: String?, environment: [String: String]) throws -> String {
    if let explicit = explicitPath, !explicit.isEmpty { return absolute(explicit) }
    if let dir = environment["AUTH_SIDECAR_STATE_DIR"], !dir.isEmpty { return absolute(dir) }
    // The XDG spec says relative values are invalid and must be ignored.
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return absolute(xdg + "/auth-sidecar") }
    if let home = environment["HOME"], home.hasPrefix("/") { return absolute(home + "/.local/state/auth-sidecar") }
    throw StorageError.invalidConfiguration(
      "cannot locate the state directory: pass --state-dir or set AUTH_SIDECAR_STATE_DIR, XDG_STATE_HOME or HOME")
  }

  /// The environment variables the store reads (where its directory is, and its key), from the process: looked
  /// up one by one, since copying the whole environment into a dictionary costs every start of the sidecar
  /// about 0.35 M instructions, 5 % of its cold start.
  package static func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    for name in ["AUTH_SIDECAR_STATE_DIR", "XDG_STATE_HOME", "HOME", StoreKey.environmentVariable] {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }

  /// A path inside the directory.
  package func file(_ name: String) -> String { path + "/" + name }

  static func absolute(_ path: String) -> String {
    var result = path
    if !result.hasPrefix("/") {
      if let cwdPointer = getcwd(nil, 0) {
        let cwd = String(cString: cwdPointer)
        free(cwdPointer)
        result = (cwd == "/" ? "" : cwd) + "/" + result
      }
    }
    while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
    return result
  }

  /// `path` with every symlink above its last component resolved (`/home` → `/var/home` on Fedora Atomic and
  /// others). Only the state directory itself, the database and the key file are refused as symlinks (each is
  /// opened with O_NOFOLLOW); SQLite's NOFOLLOW, though, refuses a symlink anywhere in the path, so the store
  /// must be named by a path whose ancestors are real directories.
  static func resolvingAncestors(_ path: String) -> String {
    let parent = parentPath(path)
    guard parent != path, let leaf = path.split(separator: "/").last, let resolved = realpath(parent, nil) else {
      return path
    }
    defer { free(resolved) }
    let real = String(cString: resolved)
    return (real == "/" ? "" : real) + "/" + leaf
  }

  /// `mkdir -p`: the leaf with `mode` forced by chmod (a umask of 000 or 077 must not change it); missing parents
  /// with 0755 less the umask, as `mkdir -p` would, never world-writable.
  static func create(_ path: String, mode: mode_t) throws {
    if mkdir(path, mode) == 0 {
      guard chmod(path, mode) == 0 else {
        throw StorageError.unavailable("cannot set mode on \(path): \(FileSystem.errnoText(errno))")
      }
      return
    }
    switch errno {
    case EEXIST:
      return
    case ENOENT:
      let parent = parentPath(path)
      guard parent != path else { break }
      try createParent(parent)
      try create(path, mode: mode)
      return
    default:
      break
    }
    throw StorageError.unavailable("cannot create directory \(path): \(FileSystem.errnoText(errno))")
  }

  private static func createParent(_ path: String) throws {
    if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
    if errno == ENOENT, parentPath(path) != path {
      try createParent(parentPath(path))
      if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
    }
    throw StorageError.unavailable("cannot create directory \(path): \(FileSystem.errnoText(errno))")
  }

  private static func parentPath(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }
}
