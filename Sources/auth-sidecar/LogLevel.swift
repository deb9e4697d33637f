#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Diagnostic verbosity. Whatever the level, log lines are composed only from values that
/// are not secrets: no code path passes a password, token or cookie to the log.
enum LogLevel: Int, Comparable {
  case error, warning, info, debug, trace

  init?(name: String) {
    switch name {
    case "error": self = .error
    case "warning", "warn": self = .warning
    case "info": self = .info
    case "debug": self = .debug
    case "trace": self = .trace
    default: return nil
    }
  }

  static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Writes diagnostics to stderr, one line each.
struct StderrLog: Sendable {
  let level: LogLevel

  func log(_ messageLevel: LogLevel, _ message: String) {
    guard messageLevel <= level else { return }
    let line = "auth-sidecar[\(messageLevel)]: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
  }
}
