import Glibc

extension Array where Element == UInt8 {
  /// Zeroes a temporary copy of key or plaintext bytes before it is released. Best effort: copies made
  /// elsewhere are out of reach, so the goal is only to not leave this one for the allocator to hand out.
  mutating func wipe() {
    withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      _ = memset(base, 0, buffer.count)
    }
  }
}
