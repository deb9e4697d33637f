/// Splits NDJSON input into lines, one message per line.
///
/// Complete lines are handed out straight from the read buffer; only a line split across
/// reads is copied. A line longer than `maxMessageBytes` is reported once and the rest of it
/// is dropped as it arrives, so a 100 MB line with no newline costs no memory.
package struct LineFramer {
  package let maxMessageBytes: Int
  private var carry: [UInt8] = []
  private var skippingOversizedLine = false

  package init(maxMessageBytes: Int) { self.maxMessageBytes = maxMessageBytes }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void) {
    var start = 0
    while start < chunk.count {
      guard let newline = firstNewline(in: chunk, from: start) else {
        appendPartial(UnsafeBufferPointer(rebasing: chunk[start...]), emit)
        return
      }
      let piece = UnsafeBufferPointer(rebasing: chunk[start..<newline])
      start = newline + 1
      if skippingOversizedLine {
        skippingOversizedLine = false
        continue
      }
      if carry.isEmpty {
        emitLine(piece, emit)
      } else {
        guard carry.count + piece.count <= maxMessageBytes + 1 else {
          carry.removeAll(keepingCapacity: false)
          emit(.oversized)
          continue
        }
        carry.append(contentsOf: piece)
        carry.withUnsafeBufferPointer { emitLine($0, emit) }
        carry.removeAll(keepingCapacity: carry.capacity <= 65_536)
      }
    }
  }

  /// Input ended: a last line without a newline is still a message.
  package mutating func finish(_ emit: (FrameEvent) -> Void) {
    if !skippingOversizedLine, !carry.isEmpty {
      carry.withUnsafeBufferPointer { emitLine($0, emit) }
    }
    carry = []
    skippingOversizedLine = false
  }

  private mutating func appendPartial(_ piece: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void) {
    guard !skippingOversizedLine else { return }
    // +1 leaves room for the `\r` of a `\r\n` ending on a line of exactly the limit.
    if carry.count + piece.count > maxMessageBytes + 1 {
      carry = []
      skippingOversizedLine = true
      emit(.oversized)
      return
    }
    carry.append(contentsOf: piece)
  }

  private func emitLine(_ line: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void) {
    var end = line.count
    if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    let body = UnsafeBufferPointer(rebasing: line[..<end])
    if body.count > maxMessageBytes {
      emit(.oversized)
      return
    }
    // Blank lines (only white space) are ignored, as hosts often send a trailing newline.
    if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
    emit(.message(body))
  }

  private func firstNewline(in chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = chunk.baseAddress, start < chunk.count else { return nil }
    guard let found = memchr(base + start, 0x0A, chunk.count - start) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
