import AuthJSON

/// Where answers and notifications go. The transport implements it; the dispatcher only
/// talks to this protocol, so it never touches a file descriptor.
package protocol MessageSender: Sendable {
  /// Queues one outgoing message. It is on the wire when this returns, or at the end of the
  /// read batch being processed (answers to one read are written together).
  func send(_ message: OutgoingMessage)
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
