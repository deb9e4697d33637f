internal import COpenSSL

/// Comparison whose running time does not depend on where two byte strings first differ.
package enum ConstantTime {
  /// `true` when `a` and `b` have the same length and the same bytes.
  ///
  /// Lengths are treated as public. When they differ the shared prefix is still compared in full, so the
  /// timing reveals the lengths and nothing about the contents.
  package static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBytes { a in b.withUnsafeBytes { b in equals(a, b) } }
  }

  static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    let shared = min(a.count, b.count)
    let contentDiffers = shared > 0 && CRYPTO_memcmp(a.baseAddress, b.baseAddress, shared) != 0
    return !contentDiffers && a.count == b.count
  }
}
