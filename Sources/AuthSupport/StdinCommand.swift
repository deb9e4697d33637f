import CProcessControl

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a configured command with a message on its stdin — the only channel a secret may travel to another
/// program: argv and the environment of a process are readable by every user of the machine
/// (`/proc/PID/cmdline`, `ps e`), a pipe is not.
///
/// The child's stdout goes to our stderr (our stdout carries protocol messages only), and it inherits no
/// descriptor above stderr (not the store's database, not the real stdout moved aside at start).
package enum StdinCommand {
  package struct Failure: Error, Sendable, CustomStringConvertible {
    package let description: String
  }

  /// Blocks until the command exits or `timeoutSeconds` pass (then it is killed).
  /// - Returns: normally; the command ran and exited 0.
  /// - Throws: `Failure` when it could not start, exited non-zero, died on a signal or timed out.
  package static func run(_ argv: [String], stdin message: [UInt8], timeoutSeconds: Int) throws(Failure) {
    precondition(!argv.isEmpty, "a command needs a program")
    var pipeEnds: [Int32] = [-1, -1]
    // Close-on-exec: the child gets the read end as its stdin only, through dup2; no other child inherits either.
    guard pipe(&pipeEnds) == 0, fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC) == 0,
      fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC) == 0
    else { throw Failure(description: "pipe failed: errno \(errno)") }
    let pid = try spawn(argv, stdinFrom: pipeEnds[0])
    close(pipeEnds[0])
    writeAll(message, to: pipeEnds[1])
    close(pipeEnds[1])
    try wait(pid, argv[0], timeoutSeconds: timeoutSeconds)
  }

  private static func spawn(_ argv: [String], stdinFrom readEnd: Int32) throws(Failure) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
    posix_spawn_file_actions_adddup2(&actions, 2, 1)
    auth_spawn_close_from(&actions, 3)
    var pid: pid_t = 0
    let arguments = argv.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    // The environment as it is now: the store key was removed from it at start.
    let rc = posix_spawn(&pid, argv[0], &actions, nil, arguments, environ)
    guard rc == 0 else { throw Failure(description: "\(argv[0]) could not start: errno \(rc)") }
    return pid
  }

  /// A command that exits without reading everything must not kill us: SIGPIPE is ignored process-wide, so a
  /// write to a closed pipe just fails here.
  private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  private static func wait(_ pid: pid_t, _ program: String, timeoutSeconds: Int) throws(Failure) {
    var status: Int32 = 0
    var waited = 0
    // Polled every 10 ms: a delivery command is a short script, and a thread of the blocking pool is ours.
    while true {
      let done = waitpid(pid, &status, WNOHANG)
      if done == pid { break }
      if done < 0 && errno != EINTR { throw Failure(description: "\(program): waitpid failed") }
      if waited >= timeoutSeconds * 100 {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw Failure(description: "\(program) did not finish within \(timeoutSeconds) s")
      }
      usleep(10_000)
      waited += 1
    }
    let signal = status & 0x7f
    if signal != 0 { throw Failure(description: "\(program) died on signal \(signal)") }
    let code = (status >> 8) & 0xff
    if code != 0 { throw Failure(description: "\(program) exited with status \(code)") }
  }
}
