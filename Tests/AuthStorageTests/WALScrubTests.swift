import Testing

#if canImport(Glibc)
  import Glibc
#endif

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

  /// Logs in as alice, then replaces her session with an `afterReturning` scrub.
  /// - Returns: alice's sealed columns, still on disk (checked, so the probes that follow are real).
  static func replacedWithScrubPending(_ store: Store) throws -> [[UInt8]] {
    try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
    let sealed = try sealedColumns(store)
    try store.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "bob-token")) }
    #expect(!survivors(sealed, in: store).isEmpty)
    return sealed
  }

  /// A login's replaced tokens leave the WAL after its answer, not before: pending until the caller scrubs.
  @Test func aDeferredScrubLeavesTheReplacedTokensUntilItRuns() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let sealed = try Self.replacedWithScrubPending(store)
      #expect(store.scrubPendingSecrets())
      #expect(Self.survivors(sealed, in: store) == [])
      // Started again (one frame: page 1), so that the next commit syncs no new header.
      #expect(contents(store.databasePath + "-wal").count > 32)
      #expect(!store.scrubPendingSecrets(), "nothing left pending")
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")
    }
  }

  /// A process killed between the answer and the scrub: the next open of the store scrubs.
  @Test func aScrubLeftPendingHappensAtTheNextOpen() throws {
    try withTemporaryDirectory { parent in
      let sealed = try Self.replacedWithScrubPending(try openStore(parent))
      let next = try openStore(parent)
      #expect(Self.survivors(sealed, in: next) == [])
      #expect(text(try next.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")
    }
  }

  /// A write that scrubs before returning also takes care of what an earlier one left pending.
  @Test func aLogoutScrubsWhatALoginLeftPending() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let first = try Self.replacedWithScrubPending(store)
      let second = try Self.sealedColumns(store)
      try store.write { try $0.clearSession(profile: "default") }
      #expect(Self.survivors(first + second, in: store) == [])
      #expect(!store.scrubPendingSecrets(), "nothing left pending")
    }
  }

  /// A first login replaces nothing, so it has nothing to scrub.
  @Test func aFirstLoginLeavesNoScrubPending() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "alice-token")) }
      #expect(!store.scrubPendingSecrets())
      try store.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "bob-token")) }
      #expect(store.scrubPendingSecrets())
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

  /// Deferred scrubs one after another, on the scrub connection the first one opened: each empties the WAL.
  @Test func everyDeferredScrubOnTheKeptConnectionEmptiesTheWAL() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "token-0")) }
      for round in 1...4 {
        let sealed = try Self.sealedColumns(store)
        try store.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "token-\(round)")) }
        #expect(!Self.survivors(sealed, in: store).isEmpty)
        #expect(store.scrubPendingSecrets())
        #expect(Self.survivors(sealed, in: store) == [], "round \(round)")
      }
      #expect(try store.read { try $0.db.row("PRAGMA integrity_check") { $0.text(0) } } == "ok")
    }
  }

  /// A process that leaves normally with a scrub still pending: the store's own connection closes last, after the
  /// kept scrub connection, and its close checkpoints the replaced tokens away.
  @Test func theLastCloseScrubsAfterAKeptScrubConnection() throws {
    try withTemporaryDirectory { parent in
      var store: Store? = try openStore(parent)
      _ = try Self.replacedWithScrubPending(store!)
      #expect(store!.scrubPendingSecrets())
      let second = try Self.sealedColumns(store!)
      try store!.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "carol-token")) }
      let path = store!.databasePath
      #expect(!contents(path + "-wal").isEmpty)
      store = nil
      #expect(contents(path + "-wal").isEmpty, "the last close emptied the WAL")
      for needle in second { #expect(!Self.contains(contents(path), needle)) }
    }
  }

  /// The kept scrub connection never writes to a file that the path no longer names (another process quarantined
  /// or replaced the store): that scrub fails and the file it opened is left as found.
  @Test func theKeptScrubConnectionLeavesAReplacedFileAlone() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      _ = try Self.replacedWithScrubPending(store)
      #expect(store.scrubPendingSecrets())
      try store.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "carol-token")) }
      let path = store.databasePath
      let aside = path + ".moved"
      #expect(rename(path, aside) == 0)
      let before = contents(aside) + contents(path + "-wal")
      #expect(!store.scrubPendingSecrets())
      #expect(contents(aside) + contents(path + "-wal") == before)
    }
  }
}
