#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Diagnostic verbosity, most severe first.
package enum LogLevel: Int, Comparable, Sendable, CaseIterable {
  case error, warning, info, debug, trace

  package init?(name: String) {
    switch name {
    case "error": self = .error
    case "warning", "warn": self = .warning
    case "info": self = .info
    case "debug": self = .debug
    case "trace": self = .trace
    default: return nil
    }
  }

  package var name: String {
    switch self {
    case .error: return "error"
    case .warning: return "warning"
    case .info: return "info"
    case .debug: return "debug"
    case .trace: return "trace"
    }
  }

  package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Diagnostics to stderr, one line each; never stdout, which carries only protocol messages.
///
/// - Important: callers compose messages only from values that are not secrets. No password,
///   token, cookie or code is ever passed here, at any level: secret types print `<redacted>`
///   and user-supplied strings are not logged.
package struct Logger: Sendable {
  package let level: LogLevel
  private let sink: @Sendable (String) -> Void

  package init(level: LogLevel, sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
    self.level = level
    self.sink = sink
  }

  package static let disabled = Logger(level: .error, sink: { _ in })

  package func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
    guard messageLevel <= level else { return }
    sink("auth-sidecar[\(messageLevel.name)]: \(message())\n")
  }

  package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
  package func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }

  package static let standardError: @Sendable (String) -> Void = { line in
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
  }
}
