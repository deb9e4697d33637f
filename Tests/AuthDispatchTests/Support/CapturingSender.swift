import AuthJSON
import AuthProtocol
import Synchronization
import Testing

/// Records every message the server sends, and lets a test wait for them.
///
/// Answers to barrier requests (string ids starting with `barrierPrefix`, see `ServerHarness.barrier()`) are
/// kept apart: they prove the server got this far, and are not part of what the test inspects.
final class CapturingSender: MessageSender {
  static let barrierPrefix = "barrier "
  private let sent = Mutex<[OutgoingMessage]>([])
  private let barriersAnswered = Mutex<Set<String>>([])
  private let hook = Mutex<(@Sendable (OutgoingMessage) -> Void)?>(nil)

  func send(_ message: OutgoingMessage) {
    if let id = message.json["id"]?.stringValue, id.hasPrefix(Self.barrierPrefix) {
      _ = barriersAnswered.withLock { $0.insert(id) }
      return
    }
    sent.withLock { $0.append(message) }
    // Outside the lock: a hook may feed the server, which may answer at once.
    hook.withLock { $0 }?(message)
  }

  /// Runs `reaction` on the sending thread for every message, like a host that writes its next
  /// request the moment it reads an answer.
  func onSend(_ reaction: @escaping @Sendable (OutgoingMessage) -> Void) {
    hook.withLock { $0 = reaction }
  }

  /// Everything sent so far, as JSON trees.
  var messages: [JSONValue] { sent.withLock { $0 }.map(\.json) }

  var count: Int { sent.withLock { $0.count } }

  /// Waits until at least `count` messages were sent (failing the test after `timeout`).
  @discardableResult
  func wait(for count: Int, timeout: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> [JSONValue]
  {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while self.count < count {
      guard clock.now < deadline else {
        Issue.record("waited for \(count) messages, got \(self.count)", sourceLocation: sourceLocation)
        break
      }
      try await Task.sleep(for: .milliseconds(1))
    }
    return messages
  }

  /// Waits until the barrier request `id` was answered (failing the test after `timeout`).
  func waitForBarrier(
    _ id: String, timeout: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !barriersAnswered.withLock({ $0.contains(id) }) {
      guard clock.now < deadline else {
        Issue.record("barrier \(id) was never answered", sourceLocation: sourceLocation)
        return
      }
      try await Task.sleep(for: .milliseconds(1))
    }
  }
}
