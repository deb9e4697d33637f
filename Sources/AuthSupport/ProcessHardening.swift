#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import CProcessControl

/// What the executables do first, before they read a request: their memory holds passwords, tokens and the
/// store key, so it must never end up in a core file, in another process's view, or in a crash report.
package enum ProcessHardening {
  /// No core file (RLIMIT_CORE 0, hard limit too, so nothing in the process can raise it again) and not
  /// dumpable (no core whatever the limit, no ptrace attach or /proc/PID/mem by the same user).
  package static func disableCoreDumps() {
    var none = rlimit(rlim_cur: 0, rlim_max: 0)
    _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
    _ = auth_set_dumpable(0)
  }

  /// Replaces the Swift runtime's crash handlers, whose backtrace prints registers and the memory they point
  /// at (which can hold request bytes), with one fixed line; then the signal's default action ends the
  /// process. A `fatalError` message still comes first: ours never interpolate input.
  package static func installCrashReport(program: StaticString) {
    crashLine = "\(program): fatal signal; no backtrace is printed, as it could hold request data\n"
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      ProcessHardening.crashLine.withCString { _ = write(STDERR_FILENO, $0, strlen($0)) }
      Glibc.signal(signal, SIG_DFL)
      raise(signal)
    }
    // No SA_RESETHAND: the handler puts the default action back itself before raising again.
    sigemptyset(&action.sa_mask)
    for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] { sigaction(signal, &action, nil) }
  }

  /// Removes `name` from the environment once it has been read: its value is overwritten where the kernel shows
  /// it (`/proc/PID/environ` reads the original environment block, which `unsetenv` alone leaves intact), then
  /// the entry goes, so no child process inherits it.
  package static func scrubEnvironmentVariable(_ name: String) {
    let prefix = Array((name + "=").utf8)
    var cursor = environ
    while let entry = cursor.pointee {
      if memcmp(entry, prefix, prefix.count) == 0 {
        let value = entry + prefix.count
        memset(value, 0, strlen(value))
      }
      cursor += 1
    }
    unsetenv(name)
  }

  /// Set once by `installCrashReport` before any handler can run; read only by the handler.
  nonisolated(unsafe) private static var crashLine = ""
}
