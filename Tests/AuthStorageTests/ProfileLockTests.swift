import Foundation
import Synchronization
import Testing

@testable import AuthStorage

@Suite struct ProfileLockTests {
  @Test func threadsOfOneProcessExcludeEachOther() throws {
    try withTemporaryDirectory { parent in
      let locks = ProfileLock(stateDirectory: try StateDirectory(path: parent + "/state"))
      let inside = Mutex(0)
      let overlaps = Mutex(0)
      let total = Mutex(0)
      onThreads(6) { _ in
        for _ in 0..<10 {
          try? locks.withLockBlocking("default") {
            let depth = inside.withLock { depth in
              depth += 1
              return depth
            }
            if depth > 1 { overlaps.withLock { $0 += 1 } }
            usleep(500)
            total.withLock { $0 += 1 }
            inside.withLock { $0 -= 1 }
          }
        }
      }
      #expect(overlaps.withLock { $0 } == 0)
      #expect(total.withLock { $0 } == 60)
    }
  }

  @Test func waitingPastTheTimeoutIsUnavailable() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let started = ContinuousClock.now
      let error: StorageError? = try store.profileLocks.withLockBlocking("default") {
        // Another holder (a second fd, as another process would have) tries and gives up.
        storageError { try store.profileLocks.withLockBlocking("default", timeout: .milliseconds(150)) {} }
      }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("lock timeout") == true)
      #expect(ContinuousClock.now - started >= .milliseconds(150))
      // Other profiles are not blocked, and the lock is free again once released.
      try store.profileLocks.withLockBlocking("default") { try store.profileLocks.withLockBlocking("other", timeout: .zero) {} }
      try store.profileLocks.withLockBlocking("default", timeout: .zero) {}
    }
  }

  /// Shared between the tasks below; a class so escaping task closures can capture it.
  final class Events: Sendable {
    private let list = Mutex<[String]>([])
    func append(_ event: String) { list.withLock { $0.append(event) } }
    var all: [String] { list.withLock { $0 } }
  }

  @Test func theAsyncFormWaitsForTheHolder() async throws {
    try await withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let events = Events()
      let first = Task {
        try await store.withProfileLock("default") {
          events.append("first-in")
          // Held until the second task is on its way to the lock (and a little longer, for it to get there):
          // on a busy machine it may start late, and must not find the lock already free.
          while !events.all.contains("second-asks") { try await Task.sleep(for: .milliseconds(5)) }
          try await Task.sleep(for: .milliseconds(100))
          events.append("first-out")
        }
      }
      while events.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
      let second = Task {
        events.append("second-asks")
        try await store.withProfileLock("default") { () async in events.append("second") }
      }
      try await first.value
      try await second.value
      #expect(events.all == ["first-in", "second-asks", "first-out", "second"])
    }
  }

  @Test func lockFilesAreNamedByHashAndPrivate() throws {
    try withTemporaryDirectory { parent in
      let locks = ProfileLock(stateDirectory: try StateDirectory(path: parent + "/state"))
      let path = locks.path(for: "../../etc/passwd")
      #expect(path.hasPrefix(parent + "/state/locks/") && path.hasSuffix(".lock"))
      #expect(path.split(separator: "/").last?.count == 64 + 5)
      try withUmask(0) { try locks.withLockBlocking("../../etc/passwd") {} }
      #expect(mode(path) == 0o600)
      #expect(mode(parent + "/state/locks") == 0o700)
    }
  }
}
