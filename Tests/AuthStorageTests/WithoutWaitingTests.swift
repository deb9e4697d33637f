import Foundation
import Testing

@testable import AuthStorage

/// The read (and the login's write) a task on the cooperative pool runs on its own thread: done at once when nothing
/// holds a lock, otherwise not done at all (nil) so that the caller can run it where waiting is fine.
@Suite struct WithoutWaitingTests {
  @Test func aFreeStoreReadsAtOnce() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      let read = try store.readWithoutWaiting { try $0.session(profile: "default") }
      #expect(text(try #require(read)?.accessToken) == "alice-token")
    }
  }

  @Test func aLoggedOutProfileReadsAsNilInsideTheAnswer() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      // Not done would be nil; done, with no session, is an answer holding nil.
      let read: SessionRecord?? = try store.readWithoutWaiting { try $0.session(profile: "default") }
      #expect(read != nil)
      #expect(read! == nil)
    }
  }

  /// Alice's session committed, and a second connection inside a write transaction of its own.
  private func withWriterElsewhere(_ body: (Store, SQLiteConnection) throws -> Void) throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      let other = try SQLiteConnection(path: store.databasePath)
      defer { other.close(checkpoint: false) }
      try other.execute("BEGIN IMMEDIATE")
      try body(store, other)
    }
  }

  @Test func aWriterElsewhereDoesNotHoldUpARead() throws {
    try withWriterElsewhere { store, other in
      try other.execute("UPDATE sessions SET expires_at = 1")
      // WAL: done at once, and it sees the last committed state, not the other connection's pending write.
      let read = try store.readWithoutWaiting { try $0.session(profile: "default") }
      #expect(try #require(read)?.expiresAt != 1)
      #expect(text(try #require(read)?.accessToken) == "alice-token")
      try other.execute("ROLLBACK")
    }
  }

  @Test func anotherThreadInsideATransactionIsNotWaitedFor() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let (entered, released, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchGroup())
      finished.enter()
      Thread {
        try? store.write { _ in
          entered.signal()
          released.wait()
        }
        finished.leave()
      }.start()
      entered.wait()
      var ran = false
      #expect(try store.readWithoutWaiting { _ in ran = true } == nil)
      #expect(!ran)
      released.signal()
      finished.wait()
      #expect(try store.readWithoutWaiting { try $0.sessionGeneration(profile: "default") } == 0)
    }
  }

  @Test func aFreeStoreCommitsAWriteAtOnce() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let generation = try store.writeWithoutWaiting(scrub: .afterReturning) {
        try $0.beginSession(sampleSession(token: "alice-token"))
      }
      #expect(generation != nil)
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "alice-token")
    }
  }

  @Test func aWriterElsewhereRefusesAWriteAndNothingOfItStays() throws {
    try withWriterElsewhere { store, other in
      var ran = false
      let written = try store.writeWithoutWaiting(scrub: .afterReturning) { tx in
        ran = true
        return try tx.beginSession(sampleSession(token: "bob-token"))
      }
      #expect(written == nil)
      #expect(!ran)
      try other.execute("ROLLBACK")
      // Refused, not broken: the same write then goes through, and the store waits for locks again.
      #expect(try store.writeWithoutWaiting(scrub: .afterReturning) {
        try $0.beginSession(sampleSession(token: "bob-token"))
      } != nil)
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")
    }
  }
}
