import AuthCrypto
import Glibc

/// `<state dir>/store.key`: 32 random bytes, mode 0600, created once and never rewritten.
enum KeyFile {
  static let name = "store.key"

  /// Reads the key file, creating it first if it does not exist. When several processes start at once, exactly
  /// one file wins and every process reads that one.
  static func loadOrCreate(_ path: String, in directory: String, notes: inout [String]) throws -> SecretBytes {
    // Two rounds are enough: a lost creation race means the winner's complete file is already in place.
    for _ in 0..<2 {
      if let secret = try load(path) { return secret }
      if let secret = try create(path, in: directory) {
        notes.append("created key file \(path)")
        return secret
      }
    }
    throw StorageError.unavailable("cannot create or read the key file \(path)")
  }

  /// nil when the file does not exist.
  /// - Throws: `StorageError.unavailable` for a symlink, a foreign owner, a size other than 32 bytes or a mode that
  ///   lets group or others in. Such a file is refused, not repaired: it may already have leaked.
  static func load(_ path: String) throws -> SecretBytes? {
    // O_NONBLOCK so a FIFO planted in place of the file cannot hang us before fstat rejects it.
    let fd = FileSystem.open(path, O_RDONLY | O_NONBLOCK)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw StorageError.unavailable("key file \(path) is a symlink; refusing to use it") }
      throw StorageError.unavailable("cannot open key file \(path): \(FileSystem.errnoText(code))")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw StorageError.unavailable("cannot stat key file \(path): \(FileSystem.errnoText(errno))")
    }
    try FileSystem.checkPrivateFile(status, path, "key file")
    guard status.st_mode & 0o077 == 0 else {
      throw StorageError.unavailable(
        "key file \(path) has mode \(FileSystem.octal(status.st_mode)), readable beyond its owner; refusing to "
          + "use it (it may have leaked: replace it, or chmod 600 if you are sure it did not)")
    }
    guard status.st_size == StoreKey.byteCount else {
      throw StorageError.unavailable(
        "key file \(path) is \(status.st_size) bytes, not \(StoreKey.byteCount); refusing to use it")
    }
    var bytes = try FileSystem.read(fd, limit: StoreKey.byteCount + 1, path)
    defer { bytes.wipe() }
    guard bytes.count == StoreKey.byteCount else {
      throw StorageError.unavailable("key file \(path) changed size while being read")
    }
    return SecretBytes(bytes)
  }

  /// Writes a new key to a private temporary file, syncs it, then publishes it with link(2), which fails rather
  /// than replace a file another process published first. Readers therefore never see a partial key file, and a
  /// crash mid-write leaves at most a stray temporary file, never an empty `store.key`.
  /// - Returns: nil when another process won the race (the caller reads its file).
  private static func create(_ path: String, in directory: String) throws -> SecretBytes? {
    let secret = try randomKey()
    let suffix = Hex.encode((try? RandomBytes.generate(8)) ?? [])
    let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(suffix)"
    let fd = FileSystem.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else {
      throw StorageError.unavailable("cannot create key file \(temporary): \(FileSystem.errnoText(errno))")
    }
    defer { unlink(temporary) }
    do {
      defer { close(fd) }
      // The umask may have dropped bits from 0600; the key file must be exactly owner read/write.
      guard fchmod(fd, 0o600) == 0 else {
        throw StorageError.unavailable("cannot set mode 0600 on \(temporary): \(FileSystem.errnoText(errno))")
      }
      try secret.withUnsafeBytes { try FileSystem.writeAll(fd, $0, temporary) }
      guard fsync(fd) == 0 else {
        throw StorageError.unavailable("cannot sync key file \(temporary): \(FileSystem.errnoText(errno))")
      }
    }
    guard link(temporary, path) == 0 else {
      if errno == EEXIST { return nil }
      throw StorageError.unavailable("cannot create key file \(path): \(FileSystem.errnoText(errno))")
    }
    try FileSystem.syncDirectory(directory)
    return secret
  }

  private static func randomKey() throws -> SecretBytes {
    do {
      return try SecretBytes(randomCount: StoreKey.byteCount)
    } catch {
      throw StorageError.unavailable("cannot generate a store key: \(error)")
    }
  }
}
