#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Process-wide settings FoundationNetworking reads from the environment.
package enum HTTPEnvironment {
  /// Variables that make FoundationNetworking print libcurl's traffic — every request header,
  /// `Authorization` and `Cookie` included — through NSLog to stderr, where no secret may appear.
  package static let debugVariables = ["URLSessionDebugLibcurl", "URLSessionDebug"]

  /// Removes the debug variables from this process's environment. FoundationNetworking reads them
  /// once, on its first transfer, so the executable calls this at start, before any thread exists:
  /// `unsetenv` is not safe while another thread reads the environment.
  package static func scrubDebugVariables() {
    for name in debugVariables { unsetenv(name) }
  }

  /// True when a debug variable is set, so that a late scrub happens only when it is needed.
  package static var hasDebugVariables: Bool { debugVariables.contains { getenv($0) != nil } }
}
