import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

/// Eight processes share one fresh state directory: they race to create it, its key file and its schema, then
/// each does read → write in two transactions under the profile lock (safe only if the lock excludes processes)
/// while SQLite's busy timeout absorbs their write-lock contention.
@Suite struct MultiProcessTests {
  static let childVariable = "AUTH_STORAGE_TEST_WRITER_DIR"
  static let processes = 8
  static let rounds = 20

  @Test func eightProcessesWriteWithoutLockErrorsOrLostUpdates() throws {
    try withTemporaryDirectory { parent in
      let children = try (0..<Self.processes).map { _ in
        try ChildProcess(
          test: "AuthStorageTests.MultiProcessTests/writerChild", environment: [Self.childVariable: parent])
      }
      for result in children.map({ $0.wait() }) { #expect(result.status == 0, "\(result.stderr)") }

      let store = try openStore(parent, environment: [:])
      #expect(store.protectionLevel == .file)
      #expect(try store.read { try $0.accounts().count } == Self.processes * Self.rounds)
      #expect(text(try store.read { try $0.secret(named: "counter") }) == "\(Self.processes * Self.rounds)")
    }
  }

  /// Does nothing unless started by the test above.
  @Test func writerChild() throws {
    guard let parent = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
    do {
      let store = try openStore(parent, environment: [:])
      for round in 0..<Self.rounds {
        try store.profileLocks.withLockBlocking("counter") {
          let current = try store.read { try $0.secret(named: "counter") }
          let next = (text(current).flatMap { Int($0) } ?? 0) + 1
          try store.write { tx in
            try tx.putSecret(secret("\(next)"), named: "counter")
            try tx.insertAccount(sampleAccount("\(getpid())-\(round)", username: "p\(getpid())r\(round)"))
          }
        }
      }
    } catch {
      exitChild(1, "\(error)")
    }
    exitChild(0)
  }
}
