#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Process-wide settings libcurl reads from the environment.
package enum HTTPEnvironment {
  /// Variables that make libcurl write secrets somewhere: `SSLKEYLOGFILE` makes its OpenSSL build append every
  /// TLS session's keys to that file, which decrypts every token and password sent.
  package static let debugVariables = ["SSLKEYLOGFILE"]

  /// Removes the variables from this process's environment. libcurl reads them when it first initializes TLS,
  /// so the executable calls this at start, before any thread exists: `unsetenv` is not safe while another
  /// thread reads the environment.
  package static func scrubDebugVariables() {
    for name in debugVariables { unsetenv(name) }
  }

  /// True when a variable is set.
  package static var hasDebugVariables: Bool { debugVariables.contains { getenv($0) != nil } }
}
