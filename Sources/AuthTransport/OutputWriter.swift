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

  private let fd: Int32
  private let state: Mutex<State>

  package init(fd: Int32, mode: FramingMode) {
    self.fd = fd
    state = Mutex(State(mode: mode == .auto ? .ndjson : mode))
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
      if state.batchDepth == 0 { Self.drain(&state, fd: fd) }
    }
  }

  package func beginBatch() {
    state.withLock { $0.batchDepth += 1 }
  }

  package func endBatch() {
    state.withLock { state in
      state.batchDepth -= 1
      if state.batchDepth == 0 { Self.drain(&state, fd: fd) }
    }
  }

  package func flush() {
    state.withLock { Self.drain(&$0, fd: fd) }
  }

  /// Writes the whole buffer, retrying short writes and EINTR.
  private static func drain(_ state: inout State, fd: Int32) {
    guard !state.buffer.isEmpty else { return }
    defer { state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= 1 << 20) }
    guard !state.broken else { return }
    state.buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written >= 0 {
          offset += written
        } else if errno != EINTR {
          state.broken = true  // EPIPE and friends: the host is gone
          return
        }
      }
    }
  }
}
