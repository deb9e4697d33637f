import AuthJSON

/// Where answers and notifications go. The transport implements it; the dispatcher only
/// talks to this protocol, so it never touches a file descriptor.
package protocol MessageSender: Sendable {
  /// Queues one outgoing message. It is on the wire when this returns, or at the end of the
  /// read batch being processed (answers to one read are written together).
  func send(_ message: OutgoingMessage)

  /// Queues one message that `write` appends, already encoded, to the output: the request fast path's
  /// answers, written straight into the output buffer. `write` returns false to send nothing (whatever it
  /// appended is dropped), and so does this.
  func sendWritten(_ write: (inout [UInt8]) -> Bool) -> Bool
}

extension MessageSender {
  /// Senders without an output buffer of their own get the bytes as an `.encoded` message.
  package func sendWritten(_ write: (inout [UInt8]) -> Bool) -> Bool {
    var bytes: [UInt8] = []
    guard write(&bytes) else { return false }
    send(.encoded(EncodedJSON(trustedBytes: bytes)))
    return true
  }
}

/// What the transport hands each framed message to.
///
/// - Important: `receive…` methods are called on the transport's single reader thread, in
///   arrival order; they must not block on long work (hand it to a task instead).
package protocol MessageReceiver: Sendable {
  func receive(_ body: UnsafeBufferPointer<UInt8>)
  /// A message longer than the limit was skipped without buffering it.
  func receiveOversized(limit: Int)
  /// The framing itself was broken (e.g. an LSP header without Content-Length).
  func receiveFramingError(_ detail: String)
  /// Input ended: wait (up to `timeoutMilliseconds`) for work in flight to answer.
  func drain(timeoutMilliseconds: Int)
}
