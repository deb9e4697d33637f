internal import COpenSSL

/// libcrypto's per-thread error queue.
///
/// Every failure path must drain it: a long-running process that leaves entries behind grows without bound,
/// and a stale entry would be misreported by the next failure on the same thread.
enum OpenSSLErrorQueue {
  /// Empties this thread's queue and returns the text of its oldest entry, the root cause.
  static func takeAll() -> String? {
    let first = ERR_get_error()
    ERR_clear_error()
    guard first != 0 else { return nil }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
      ERR_error_string_n(first, buffer.baseAddress, buffer.count)
      return String(cString: buffer.baseAddress!)
    }
  }

  static func clear() {
    ERR_clear_error()
  }

  /// For calls whose API cannot throw: a failure there means a broken libcrypto, not bad input, and handing
  /// back a wrong digest or MAC would be worse than stopping.
  static func trap(_ operation: String) -> Never {
    fatalError("AuthCrypto: \(operation) failed: \(takeAll() ?? "no OpenSSL reason")")
  }
}
