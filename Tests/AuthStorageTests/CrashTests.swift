import Foundation
import Testing

@testable import AuthStorage

/// kill -9 in the middle of a stream of writes: the store must open cleanly afterwards, pass SQLite's integrity
/// check, and hold every write the child acknowledged (security research T13, process-crash half; power loss
/// needs a fault-injecting file system and is not simulated here).
@Suite struct CrashTests {
  static let childVariable = "AUTH_STORAGE_TEST_CRASH_DIR"

  @Test func killNineNeverLosesAnAcknowledgedWrite() throws {
    try withTemporaryDirectory { parent in
      _ = try openStore(parent)
      let child = try ChildProcess(
        test: "AuthStorageTests.CrashTests/crashChild", environment: [Self.childVariable: parent],
        captureOutput: true)
      let reader = try #require(child.output?.fileHandleForReading)
      var acknowledged = 0
      var pending = ""
      while acknowledged < 40 {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        pending += String(decoding: chunk, as: UTF8.self)
        let lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
        pending = String(lines.last ?? "")
        for line in lines.dropLast() where line.hasPrefix("ACK ") { acknowledged = Int(line.dropFirst(4)) ?? 0 }
      }
      child.kill(SIGKILL)
      _ = child.wait()
      try #require(acknowledged >= 40, "the child stopped early")

      let store = try openStore(parent)
      let check = try store.read { try $0.db.row("PRAGMA integrity_check") { $0.text(0) } }
      #expect(check == "ok")
      let stored = try store.read { tx in
        (try tx.session(profile: "default")).flatMap { Int(text($0.accessToken)?.dropFirst(6) ?? "") }
      }
      // Everything acknowledged survived (the child may have committed a few more before the signal landed).
      #expect(stored.map { $0 >= acknowledged } == true, "stored \(String(describing: stored)), acked \(acknowledged)")
    }
  }

  /// Does nothing unless started by the test above: writes forever, acknowledging each commit on stdout.
  @Test func crashChild() throws {
    guard let parent = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
    do {
      let store = try openStore(parent)
      var counter = 0
      while true {
        counter += 1
        try store.write { tx in
          try tx.beginSession(sampleSession(token: "token-\(counter)"))
          try tx.insertAccount(sampleAccount("\(counter)", username: "user\(counter)"))
        }
        let line = Array("ACK \(counter)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
      }
    } catch {
      exitChild(1, "\(error)")
    }
  }
}
