import Testing

@testable import AuthStorage

/// A logged-out or replaced session's sealed tokens must be gone from every file of the store: secure_delete
/// zeroes the newest page only, and the WAL keeps older page images until it is checkpointed and truncated.
@Suite struct WALScrubTests {
  /// The sealed columns of the profile's session, as stored (ciphertext, not plaintext).
  static func sealedColumns(_ store: Store, _ profile: String = "default") throws -> [[UInt8]] {
    let reader = try SQLiteConnection(path: store.databasePath)
    defer { reader.close(checkpoint: false) }
    let row = try reader.row(
      "SELECT access_token, refresh_token, id_token, provider_state FROM sessions WHERE profile = ?",
      [.text(profile)]
    ) { [$0.blob(0), $0.optionalBlob(1), $0.optionalBlob(2), $0.optionalBlob(3)].compactMap { $0 } }
    return try #require(row)
  }

  /// Which of `needles` occur in the database, its WAL or its shared-memory index.
  static func survivors(_ needles: [[UInt8]], in store: Store) -> [String] {
    var found: [String] = []
    for suffix in ["", "-wal", "-shm"] {
      let bytes = contents(store.databasePath + suffix)
      for (index, needle) in needles.enumerated() where contains(bytes, needle) {
        found.append("column \(index) in store.sqlite3\(suffix)")
      }
    }
    return found
  }

  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    var start = 0
    while start + needle.count <= haystack.count {
      if haystack[start] == needle[0], Array(haystack[start..<start + needle.count]) == needle { return true }
      start += 1
    }
    return false
  }

  @Test func logoutLeavesNoSealedTokenInAnyFile() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      let sealed = try Self.sealedColumns(store)
      // The probe is real: the values are on disk while the session lives.
      #expect(!Self.survivors(sealed, in: store).isEmpty)
      try store.write { try $0.clearSession(profile: "default") }
      #expect(Self.survivors(sealed, in: store) == [])
    }
  }

  @Test func aReplacedSessionLeavesNoSealedTokenInAnyFile() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      let sealed = try Self.sealedColumns(store)
      try store.write { try $0.beginSession(sampleSession(token: "bob-token")) }
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")
      #expect(Self.survivors(sealed, in: store) == [])
    }
  }

  /// A refresh replaces the tokens of the same session: the old ones are secrets too.
  @Test func aRefreshLeavesNoOldSealedTokenInAnyFile() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let generation = try store.write { try $0.beginSession(sampleSession(token: "first-token")) }
      let sealed = try Self.sealedColumns(store)
      var refreshed = sampleSession(token: "second-token")
      refreshed.generation = generation
      #expect(try store.write { try $0.replaceSession(refreshed) })
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "second-token")
      #expect(Self.survivors(sealed, in: store) == [])
    }
  }
}
