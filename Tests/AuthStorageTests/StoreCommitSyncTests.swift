import Glibc
import Testing

@testable import AuthStorage

/// `Store.CommitSync.deferred`: committed for every reader at once, synced by `syncDeferredCommits()` or by the
/// next checkpoint, and never changing how the connection's other commits sync.
@Suite struct StoreCommitSyncTests {
  private func synchronous(_ store: Store) throws -> Int64? {
    try store.read { try $0.db.row("PRAGMA synchronous") { $0.integer(0) } }
  }

  @Test func aDeferredCommitIsReadAtOnceAndSyncedLater() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      #expect(!store.syncIsPending, "a synced commit leaves nothing to sync")
      try store.write(sync: .deferred) {
        _ = try $0.updateCachedUser(profile: "default", generation: 1, userJSON: Array(#"{"id":"7"}"#.utf8), at: 5)
      }
      #expect(store.syncIsPending)
      #expect(try synchronous(store) == 2, "the connection syncs its other commits again (FULL)")
      let reader = try openStore(parent)
      #expect(try reader.read { try $0.session(profile: "default") }?.userJSON == Array(#"{"id":"7"}"#.utf8))
      #expect(store.syncDeferredCommits())
      #expect(!store.syncIsPending)
      #expect(!store.syncDeferredCommits(), "nothing left")
    }
  }

  /// A body that throws rolls back and still leaves the connection syncing every later commit.
  @Test func aFailedDeferredWriteLeavesTheConnectionSyncing() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      struct Refused: Error {}
      #expect(throws: Refused.self) {
        try store.write(sync: .deferred) { tx in
          try tx.beginSession(sampleSession(token: "alice-token"))
          throw Refused()
        }
      }
      #expect(!store.syncIsPending)
      #expect(try synchronous(store) == 2)
      #expect(try store.read { try $0.session(profile: "default") } == nil)
    }
  }

  /// `syncCommits` syncs whatever another caller has taken (a waiter must not trust a sync still running elsewhere),
  /// and a sync that fails leaves the deferred commits pending.
  @Test func syncCommitsAlwaysSyncsAndAFailureStaysPending() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write(sync: .deferred) { try $0.beginSession(sampleSession(token: "alice-token")) }
      #expect(store.syncCommits())
      #expect(!store.syncIsPending)
      #expect(store.syncCommits(), "nothing pending: it syncs anyway")
      try store.write(sync: .deferred) { try $0.beginSession(sampleSession(token: "bob-token")) }
      let wal = store.databasePath + "-wal"
      #expect(unlink(wal) == 0 && symlink(parent + "/absent", wal) == 0)
      #expect(!store.syncCommits())
      #expect(store.syncIsPending)
    }
  }

  /// A scrub checkpoints, which syncs the WAL first: the deferred commits before it need no sync of their own.
  @Test func aScrubSyncsTheDeferredCommitsBeforeIt() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      try store.write(scrub: .afterReturning, sync: .deferred) {
        try $0.beginSession(sampleSession(token: "bob-token"))
      }
      #expect(store.syncIsPending && store.scrubIsPending)
      #expect(store.scrubPendingSecrets())
      #expect(!store.syncIsPending)
    }
  }
}
