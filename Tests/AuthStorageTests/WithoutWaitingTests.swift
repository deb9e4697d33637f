import Foundation
import Testing

@testable import AuthStorage

/// The transactions a task on the cooperative pool runs on its own thread: done at once when nothing holds a lock,
/// otherwise not done at all (nil, rolled back) so that the caller can run them where waiting is fine.
@Suite struct WithoutWaitingTests {
  @Test func aFreeStoreReadsAndWritesAtOnce() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let generation = try store.writeWithoutWaiting { try $0.beginSession(sampleSession(token: "alice-token")) }
      #expect(generation == 1)
      let read = try store.readWithoutWaiting { try $0.session(profile: "default") }
      // Committed: the ordinary read sees it too.
      #expect(text(try #require(read)?.accessToken) == "alice-token")
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "alice-token")
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

  @Test func aWriteLockHeldElsewhereIsNotWaitedForAndNothingIsWritten() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
      let other = try SQLiteConnection(path: store.databasePath)
      defer { other.close(checkpoint: false) }
      try other.execute("BEGIN IMMEDIATE")
      var ran = false
      let written = try store.writeWithoutWaiting { tx in
        ran = true
        return try tx.beginSession(sampleSession(token: "bob-token"))
      }
      #expect(written == nil)
      #expect(!ran)
      // A read is not held up by a writer (WAL): done at once, and it sees no trace of the refused write.
      let read = try store.readWithoutWaiting { try $0.session(profile: "default") }
      #expect(text(try #require(read)?.accessToken) == "alice-token")
      try other.execute("ROLLBACK")
      // Free again: the same write is done at once, and the ordinary one waits as before.
      #expect(try store.writeWithoutWaiting { try $0.beginSession(sampleSession(token: "bob-token")) } == 2)
      #expect(try store.write { try $0.sessionGeneration(profile: "default") } == 2)
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
      #expect(try store.readWithoutWaiting { try $0.sessionGeneration(profile: "default") } == nil)
      #expect(try store.writeWithoutWaiting { try $0.sessionGeneration(profile: "default") } == nil)
      released.signal()
      finished.wait()
      #expect(try store.readWithoutWaiting { try $0.sessionGeneration(profile: "default") } == 0)
    }
  }
}
