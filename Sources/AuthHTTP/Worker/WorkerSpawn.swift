#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import CSubprocess

/// Starting the `auth-sidecar-http` process.
enum WorkerSpawn {
  static let executableName = "auth-sidecar-http"
  /// Overrides where the worker binary is looked for (installations that keep it elsewhere, tests).
  static let environmentVariable = "AUTH_SIDECAR_HTTP_BIN"

  /// `explicit`, else `$AUTH_SIDECAR_HTTP_BIN`, else `auth-sidecar-http` next to the running executable:
  /// `swift build` and an installation put the two binaries side by side.
  static func executablePath(explicit: String?) -> String {
    if let explicit { return explicit }
    if let value = getenv(environmentVariable), value.pointee != 0 { return String(cString: value) }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return executableName }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return executableName }
    return String(path[...slash]) + executableName
  }

  /// Starts the worker with one end of a new socket pair as its stdin and stdout.
  ///
  /// The socket pair is made close-on-exec, so no other child of this process inherits it: the worker's
  /// stdin then reaches end of file exactly when this process closes its end or dies. In the child, every
  /// other descriptor from 3 up is closed, the signal mask emptied and the signals a host may have blocked
  /// or ignored put back to their defaults, so the worker starts clean whatever thread spawned it.
  /// - Returns: the pid and this process's end of the socket.
  static func spawn(path: String) throws(HTTPError) -> (pid: pid_t, socket: Int32) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
      throw failure(path, "socketpair failed: \(String(cString: strerror(errno)))")
    }
    let (parentEnd, childEnd) = (fds[0], fds[1])
    defer { close(childEnd) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, childEnd, STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, childEnd, STDOUT_FILENO)
    // After the dup2s, so the child's copy of the pair goes too; stderr (2) stays the host's, for the
    // worker's own last words when the socket is gone.
    _ = auth_spawn_add_close_from(&actions, 3)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var pid: pid_t = 0
    // argv holds the name only: the policy comes over the socket, and nothing secret ever goes in argv.
    let status = path.withCString { cPath in
      executableName.withCString { name in
        var argv: [UnsafeMutablePointer<CChar>?] = [UnsafeMutablePointer(mutating: name), nil]
        return posix_spawn(&pid, cPath, &actions, &attributes, &argv, environ)
      }
    }
    guard status == 0 else {
      close(parentEnd)
      throw failure(path, String(cString: strerror(status)))
    }
    return (pid, parentEnd)
  }

  private static func failure(_ path: String, _ reason: String) -> HTTPError {
    HTTPError(.networkUnavailable, "HTTP worker \(path) could not start: \(reason)")
  }

  /// How a reaped worker ended, for the error its pending requests get. The `W*` macros are not
  /// imported into Swift; this is their glibc definition.
  static func describe(status: Int32) -> String {
    let signal = status & 0x7F
    if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
    return "was killed by signal \(signal)"
  }
}
