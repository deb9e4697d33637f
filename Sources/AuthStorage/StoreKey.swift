import AuthCrypto

/// The 32-byte AES-256-GCM key that seals secrets in the store, and where it came from.
///
/// `KeySelection` says where to look: `AUTH_SIDECAR_KEY` (64 hex digits, or base64 / base64url of exactly 32
/// bytes), `<state dir>/store.key`, or the desktop keyring; the key file and the keyring item are created on first
/// use. A malformed environment key is a configuration error, never a silent fallback to another source.
package struct StoreKey: Sendable {
  package static let environmentVariable = "AUTH_SIDECAR_KEY"
  package static let byteCount = 32

  package let secret: SecretBytes
  package let source: KeySource
  /// Things worth a log line (a key file was created); never key material.
  package let notes: [String]

  package init(secret: SecretBytes, source: KeySource, notes: [String] = []) {
    self.secret = secret
    self.source = source
    self.notes = notes
  }

  /// The key `selection` picks for the store in `directory` (see `KeySelection`), created if missing unless the
  /// store records (`recorded`) that it was made with another source or with a key now gone.
  /// - Throws: `StorageError` `.invalidConfiguration` for a malformed environment key or a key source other than
  ///   `recorded`; `.corrupt` when the recorded key file or keyring item is missing; `.unavailable` for an unusable
  ///   key file (a symlink, foreign-owned, not 32 bytes, readable by group or others) or an unreachable keyring.
  package init(
    directory: StateDirectory, environment: [String: String], selection: KeySelection, recorded: KeySource? = nil
  ) throws {
    try self.init(
      directory: directory, environmentKey: try Self(environment: environment), selection: selection,
      recorded: recorded, holdsSecrets: recorded != nil)
  }

  /// `environmentKey` is `init(environment:)`'s answer; a key file or keyring item is only created for a store
  /// that holds no sealed value yet (`holdsSecrets`).
  init(
    directory: StateDirectory, environmentKey: StoreKey?, selection: KeySelection, recorded: KeySource?,
    holdsSecrets: Bool
  ) throws {
    let choice = try KeyChoice(
      setting: selection.setting, environmentKey: environmentKey, recorded: recorded, holdsSecrets: holdsSecrets,
      directory: directory, keyring: selection.keyring)
    try KeyCheck.refuseChangedSource(
      recorded: recorded, now: choice.source, setting: selection.setting, directory: directory.path)
    switch choice.source {
    case .environment:
      // KeyChoice picks the environment only when the key is there.
      self = environmentKey!
    case .file:
      let key = try Self.fromFile(directory, recorded: recorded, holdsSecrets: holdsSecrets)
      self.init(secret: key.secret, source: .file, notes: choice.notes + key.notes)
    case .keyring:
      self = try KeyringKey.load(
        selection.keyring, directory: directory, prefetched: choice.keyringLookup, mayCreate: !holdsSecrets)
    }
  }

  private static func fromFile(_ directory: StateDirectory, recorded: KeySource?, holdsSecrets: Bool) throws
    -> StoreKey
  {
    guard holdsSecrets else {
      var notes: [String] = []
      let secret = try KeyFile.loadOrCreate(directory.file(KeyFile.name), in: directory.path, notes: &notes)
      return StoreKey(secret: secret, source: .file, notes: notes)
    }
    guard let secret = try KeyFile.load(directory.file(KeyFile.name)) else {
      let origin = recorded == .file ? "was created with the key file \(KeyFile.name), which is missing" :
        "holds sealed values but has no key file and \(Self.environmentVariable) is not set"
      throw StorageError(
        .corrupt,
        "the store in \(directory.path) \(origin); its secrets cannot be decrypted without the key (restore "
          + "it; no new key file was created)", reason: "key_missing")
    }
    return StoreKey(secret: secret, source: .file)
  }

  /// The key `AUTH_SIDECAR_KEY` holds; nil when it is not set.
  /// - Throws: `StorageError.invalidConfiguration` when it is malformed.
  init?(environment: [String: String]) throws {
    guard let text = environment[Self.environmentVariable] else { return nil }
    self.init(secret: try Self.parse(environmentValue: text), source: .environment)
  }

  /// Decodes an `AUTH_SIDECAR_KEY` value. Surrounding whitespace (a newline from a file) is ignored.
  /// - Throws: `StorageError.invalidConfiguration`, whose message never quotes the value.
  package static func parse(environmentValue: String) throws -> SecretBytes {
    var raw = Array(environmentValue.utf8)
    defer { raw.wipe() }
    var start = 0
    var end = raw.count
    while start < end, isSpace(raw[start]) { start += 1 }
    while end > start, isSpace(raw[end - 1]) { end -= 1 }
    let text = String(decoding: raw[start..<end], as: UTF8.self)
    var candidates: [[UInt8]?] = []
    if text.utf8.count == byteCount * 2 {
      candidates.append(Hex.decode(text))
    } else {
      // Accept padded or unpadded spellings of either alphabet; AuthCrypto's decoders are strict about which.
      var dataEnd = end
      while dataEnd > start, raw[dataEnd - 1] == UInt8(ascii: "=") { dataEnd -= 1 }
      let padded = dataEnd < end
      // Padding, when present, must be the canonical one or two characters completing a 4-character group.
      if !padded || (end - dataEnd <= 2 && (end - start) % 4 == 0) {
        let unpadded = String(decoding: raw[start..<dataEnd], as: UTF8.self)
        let padding = String(repeating: "=", count: (4 - unpadded.utf8.count % 4) % 4)
        candidates += [Base64.decode(unpadded + padding), Base64URL.decode(unpadded)]
      }
    }
    defer {
      for index in candidates.indices { candidates[index]?.wipe() }
    }
    guard let found = candidates.firstIndex(where: { $0?.count == byteCount }), let bytes = candidates[found] else {
      throw StorageError.invalidConfiguration(
        "\(environmentVariable) must be 64 hex digits or the base64/base64url encoding of exactly 32 bytes "
          + "(it is set, \(text.utf8.count) characters, and is neither); unset it to use the key file instead")
    }
    return SecretBytes(bytes)
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
