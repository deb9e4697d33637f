internal import COpenSSL

/// OpenSSL's libcrypto, opened with `dlopen` on the first request that needs it rather than linked.
///
/// A host that only validates input never maps it, and a machine without it still validates: only what needs
/// crypto (the store, logins, tokens) fails, with the reason. COpenSSL's `libcrypto.c` holds the loader and the
/// functions that forward to the library; every entry point of this module that reaches libcrypto through a
/// throwing call asks `require()` first, and the sidecar's dispatcher asks before any method that may run crypto
/// (the non-throwing hashes, MACs and base64 have no other way to report it).
package enum LibCrypto {
  /// Nil once libcrypto is loaded; else why it is not, with how to install it. The first call opens it (once per
  /// process, whichever thread comes first); later calls cost one check.
  package static var missingReason: String? {
    auth_libcrypto_load().map { String(cString: $0) }
  }

  /// - Throws: `CryptoError` (`isLibraryUnavailable`) when libcrypto cannot be loaded or lacks a function.
  package static func require() throws {
    if let reason = missingReason { throw CryptoError(.libraryUnavailable, reason) }
  }
}
