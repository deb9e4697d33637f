import AuthJSON

/// A fixed buffer the fast path writes one answer into, to append it to the output in one go: two dozen small
/// appends to the output array each paid its uniqueness and capacity checks, more than writing the answer.
///
/// A write that does not fit is dropped and marks the buffer `overflowed`; the fast path then declines the
/// line, and the general path answers it (only answers of unusual length, such as a long value echoed back).
struct AnswerBuffer: JSONSink {
  /// Bytes of the stack buffer: every answer of the bench's corpora fits (the longest is about 550 bytes), and
  /// up to this size a temporary allocation is always on the stack.
  static let capacity = 1024

  private let base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private(set) var overflowed = false

  /// Runs `body` with an empty buffer on the stack.
  static func withBuffer<R>(_ body: (inout AnswerBuffer) -> R) -> R {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { storage in
      var buffer = AnswerBuffer(base: storage.baseAddress!)
      return body(&buffer)
    }
  }

  private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

  /// What was written so far.
  var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  private var free: Int { Self.capacity - count }

  mutating func append(_ byte: UInt8) {
    guard count < Self.capacity else {
      overflowed = true
      return
    }
    base[count] = byte
    count += 1
  }

  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count <= free else {
      overflowed = true
      return
    }
    if let source = bytes.baseAddress { (base + count).initialize(from: source, count: bytes.count) }
    count += bytes.count
  }

  mutating func append(static literal: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Lets `write` put at most `maxCount` bytes at the end and keeps the number it says it wrote (at most
  /// `maxCount`: a larger one would be a bug of `write`, and stops the process rather than overrun the buffer).
  mutating func append(upTo maxCount: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
    guard maxCount <= free else {
      overflowed = true
      return
    }
    let written = write(base + count)
    precondition(written <= maxCount)
    count += written
  }

  /// Drops what was written from `start` on.
  mutating func truncate(to start: Int) {
    precondition(start <= count)
    count = start
  }
}
