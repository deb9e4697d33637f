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

  /// Installs the handlers, unblocks the two signals on the calling (main) thread, and returns
  /// the read end of the pipe.
  package static func install() -> Int32 {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return -1 }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    writeFD = fds[1]
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      var byte: UInt8 = 1
      _ = write(ShutdownSignal.writeFD, &byte, 1)  // async-signal-safe
    }
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
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    return fds[0]
  }
}
