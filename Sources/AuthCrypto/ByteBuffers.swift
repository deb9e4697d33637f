/// Some libcrypto calls read a NULL input pointer as "no input, finish now" even when the length is 0 (GCM's
/// update is one), and Swift may hand out a nil base address for an empty array. These give C a real pointer.
extension Array where Element == UInt8 {
  func withNonNullBytes<R>(_ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
    try withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { return try body(base, buffer.count) }
      var placeholder: UInt8 = 0
      return try withUnsafePointer(to: &placeholder) { try body($0, 0) }
    }
  }
}

extension UnsafeRawBufferPointer {
  /// The bytes as `UInt8`, never nil; a zero-length view borrows a placeholder.
  func withNonNullBytes<R>(_ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
    if let base = baseAddress { return try body(base.assumingMemoryBound(to: UInt8.self), count) }
    var placeholder: UInt8 = 0
    return try withUnsafePointer(to: &placeholder) { try body($0, 0) }
  }
}
