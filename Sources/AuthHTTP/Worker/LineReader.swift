#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Newline-delimited lines from a blocking descriptor, for the two ends of the worker's socket.
package struct LineReader {
  package enum Event {
    case line([UInt8])
    /// A line passed `maxLineBytes`; it was skipped up to its newline.
    case tooLong
    /// End of input, or a read error (which, on a socket to the other end, means the same).
    case end
  }

  private let fd: Int32
  private let maxLineBytes: Int
  private var buffer: [UInt8] = []
  /// Where the next line starts in `buffer`.
  private var start = 0
  /// How far past `start` is known to hold no newline: a long line is scanned once, not once per read.
  private var scanned = 0
  private var skipping = false

  package init(fd: Int32, maxLineBytes: Int) {
    self.fd = fd
    self.maxLineBytes = maxLineBytes
  }

  package mutating func next() -> Event {
    while true {
      if let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
        let length = newline - start
        let line = skipping || length > maxLineBytes ? [] : Array(buffer[start..<newline])
        start = newline + 1
        scanned = 0
        // Over the limit whether it came in pieces (skipped as it came) or whole in one read.
        if skipping || length > maxLineBytes {
          skipping = false
          return .tooLong
        }
        return .line(line)
      }
      scanned = buffer.count - start
      if scanned > maxLineBytes {
        // Drop what is held and keep discarding until the newline.
        skipping = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
      } else if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      guard fill() else { return .end }
    }
  }

  /// Appends what one `read` returns; false at end of input or on an error other than EINTR.
  private mutating func fill() -> Bool {
    let chunk = 64 * 1024
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: chunk))
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, chunk) }
      if count < 0 && errno == EINTR { continue }
      buffer.removeLast(chunk - max(count, 0))
      return count > 0
    }
  }
}

/// Writes all of `bytes`, retrying short writes and EINTR. On a socket it passes MSG_NOSIGNAL, so that a
/// peer that died is an EPIPE here rather than a SIGPIPE that kills a host which does not ignore it.
/// - Returns: false when the peer is gone or the descriptor unusable.
package func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool) -> Bool {
  bytes.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let written =
        socket
        ? send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        : write(fd, raw.baseAddress! + offset, raw.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
