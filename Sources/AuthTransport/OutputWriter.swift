#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthJSON
import AuthProtocol
import Synchronization

/// The only writer of the protocol stream.
///
/// Messages are encoded into one buffer under a lock, so concurrent answers never interleave.
/// While the reader is processing one read (`beginBatch`/`endBatch`), answers accumulate and
/// go out in a single `write`, which is worth 2× at high request rates; outside a batch each
/// message is written at once.
package final class OutputWriter: MessageSender {
  private struct State {
    var buffer: [UInt8] = []
    var batchDepth = 0
    /// The host closed its end: answers are dropped instead of raising SIGPIPE or spinning.
    var broken = false
    var mode: FramingMode
  }

  /// The protocol descriptor; the read loop also polls it, to notice a host that closed its end.
  package let fd: Int32
  private let state: Mutex<State>
  private let onBroken: @Sendable () -> Void

  /// `onBroken` runs once, when a write finds the host's end closed (EPIPE and friends).
  package init(fd: Int32, mode: FramingMode, onBroken: @escaping @Sendable () -> Void = {}) {
    self.fd = fd
    self.onBroken = onBroken
    state = Mutex(State(mode: mode == .auto ? .ndjson : mode))
  }

  /// The host can no longer read answers: no request should be started any more.
  package var isBroken: Bool { state.withLock { $0.broken } }

  /// Marks the stream broken (the read loop saw the host close it) without writing.
  package func markBroken() {
    let first = state.withLock { state in
      defer { state.broken = true }
      return !state.broken
    }
    if first { onBroken() }
  }

  /// Frames answers the way the host's input was framed, once auto-detection has decided.
  package func setMode(_ mode: FramingMode) {
    guard mode != .auto else { return }
    state.withLock { $0.mode = mode }
  }

  package func send(_ message: OutgoingMessage) {
    state.withLock { state in
      guard !state.broken else { return }
      switch state.mode {
      case .lsp:
        let body = message.encoded
        state.buffer.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
        state.buffer.append(contentsOf: body)
      case .ndjson, .auto:
        message.encode(into: &state.buffer)
        state.buffer.append(0x0A)
      }
      if state.batchDepth == 0 { drain(&state) }
    }
  }

  /// The fast path's answers are written straight into the buffer, under the lock like any message; an
  /// LSP frame needs the body's length first, so there the body is written apart and then framed.
  package func sendWritten(_ write: (inout [UInt8]) -> Bool) -> Bool {
    state.withLock { state in
      guard !state.broken else {
        // Nothing reaches the host any more; the answer is still worked out, so a message the fast path
        // leaves to the general one is not lost in between.
        var discarded: [UInt8] = []
        return write(&discarded)
      }
      switch state.mode {
      case .lsp:
        var body: [UInt8] = []
        guard write(&body) else { return false }
        state.buffer.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
        state.buffer.append(contentsOf: body)
      case .ndjson, .auto:
        let start = state.buffer.count
        guard write(&state.buffer) else {
          state.buffer.removeSubrange(start...)
          return false
        }
        state.buffer.append(0x0A)
      }
      if state.batchDepth == 0 { drain(&state) }
      return true
    }
  }

  package func beginBatch() {
    state.withLock { $0.batchDepth += 1 }
  }

  package func endBatch() {
    state.withLock { state in
      state.batchDepth -= 1
      if state.batchDepth == 0 { drain(&state) }
    }
  }

  package func flush() {
    state.withLock { drain(&$0) }
  }

  /// Writes the whole buffer, retrying short writes and EINTR.
  private func drain(_ state: inout State) {
    guard !state.buffer.isEmpty else { return }
    defer { state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= 1 << 20) }
    guard !state.broken else { return }
    let failed = state.buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written >= 0 {
          offset += written
        } else if errno != EINTR {
          return true  // EPIPE and friends: the host is gone
        }
      }
      return false
    }
    if failed {
      state.broken = true
      // Under the lock, but it only writes a byte to the stop pipe.
      onBroken()
    }
  }
}
