#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Protects the protocol stream from everything that is not a protocol message.
package enum StdioGuard {
  /// Moves the real stdout to a private descriptor and points fd 1 at stderr, so a stray
  /// `print` from any library lands in the diagnostics instead of corrupting the stream
  /// (sourcekit-lsp does the same). Ignores SIGPIPE so a vanished host is an EPIPE, not a kill.
  /// - Returns: the descriptor that carries protocol messages.
  package static func takeStdout() -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let protocolFD = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    guard protocolFD >= 0 else { return STDOUT_FILENO }
    dup2(STDERR_FILENO, STDOUT_FILENO)
    return protocolFD
  }
}
