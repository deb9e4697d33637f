#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Turns SIGTERM and SIGINT into a readable pipe, so the read loop can `poll` for input and
/// for "stop" at once and shut down in order instead of dying mid-write.
package enum ShutdownSignal {
  /// The write end used by the signal handler. Set once in `install()` before any handler can
  /// run and never changed afterwards; a C signal handler cannot capture context.
  nonisolated(unsafe) private static var writeFD: Int32 = -1
  /// Seconds from the first stop (signal, end of input, closed stdout) to a forced exit; 0 for none.
  /// Set once in `install` before any handler can run.
  nonisolated(unsafe) private static var hardExitSeconds: UInt32 = 0
  /// Whether the forced exit is already scheduled; a second SIGTERM must not postpone it.
  nonisolated(unsafe) private static var deadlineArmed: sig_atomic_t = 0

  /// Installs the handlers, unblocks the two signals on the calling (main) thread, and returns
  /// the read end of the pipe.
  ///
  /// With `hardExitAfterSeconds`, the first stop also schedules `_exit(0)` that many seconds later
  /// (SIGALRM): the orderly drain can block for good in a write to a host that no longer reads
  /// its stdout, and the drain bound must hold even then. Answers not written by then are dropped;
  /// the store is crash-safe, so this is no worse than a `kill -9`.
  package static func install(hardExitAfterSeconds: UInt32 = 0) -> Int32 {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return -1 }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    writeFD = fds[1]
    hardExitSeconds = hardExitAfterSeconds
    if hardExitAfterSeconds > 0 {
      var expire = sigaction()
      expire.__sigaction_handler.sa_handler = { _ in _exit(0) }
      sigemptyset(&expire.sa_mask)
      sigaction(SIGALRM, &expire, nil)
    }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in ShutdownSignal.requestStop() }
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(SIGTERM, &action, nil)
    sigaction(SIGINT, &action, nil)
    // The signal mask is inherited: a host that spawns us from a thread blocking these signals
    // (Foundation's `Process` from a worker thread does) would leave SIGTERM pending forever.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGINT)
    // And the forced exit's alarm, for the same reason.
    if hardExitAfterSeconds > 0 { sigaddset(&stopSignals, SIGALRM) }
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    return fds[0]
  }

  /// Wakes the read loop as a signal would, and starts the forced-exit clock. Async-signal-safe:
  /// called from the signal handler, and by the stdout writer when the host closed its end.
  package static func requestStop() {
    var byte: UInt8 = 1
    _ = write(writeFD, &byte, 1)
    armDeadline()
  }

  /// Starts the forced-exit clock if `install` asked for one and it is not running yet.
  package static func armDeadline() {
    guard hardExitSeconds > 0, deadlineArmed == 0 else { return }
    deadlineArmed = 1
    alarm(hardExitSeconds)
  }
}
