import AuthJSON
import AuthProtocol
import Synchronization
import Testing

/// Records every message the server sends, and lets a test wait for them.
final class CapturingSender: MessageSender {
  private let sent = Mutex<[OutgoingMessage]>([])
  private let hook = Mutex<(@Sendable (OutgoingMessage) -> Void)?>(nil)

  func send(_ message: OutgoingMessage) {
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
  func wait(for count: Int, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation)
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
}
