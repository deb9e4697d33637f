#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthHTTP
import AuthSupport
import Synchronization

/// The worker's stdout: whole `WorkerMessage` lines, one writer at a time.
final class WorkerOutput: Sendable {
  private let fd: Int32
  private let lock = Mutex(())

  init(fd: Int32) { self.fd = fd }

  func send(_ message: WorkerMessage) {
    let line = message.line
    let written = lock.withLock { _ in writeAll(fd, line, socket: false) }
    // The sidecar is gone; so is any reason to go on.
    if !written { _exit(0) }
  }

  /// The sink of the worker's `Logger`: each line goes to the sidecar as a `log` message, which writes it to
  /// its own log. `Logger` hands over formatted lines, `auth-sidecar[<level>]: <message>\n`; the level and
  /// message are taken back out so the sidecar's logger formats them as its own.
  var forwardLog: @Sendable (String) -> Void {
    { [self] line in
      var message = Substring(line)
      if message.hasSuffix("\n") { message = message.dropLast() }
      var level = LogLevel.info
      if message.hasPrefix("auth-sidecar["), let close = message.firstIndex(of: "]"),
        let parsed = LogLevel(name: String(message[message.index(message.startIndex, offsetBy: 13)..<close])),
        message[close...].hasPrefix("]: ")
      {
        level = parsed
        message = message[message.index(close, offsetBy: 3)...]
      }
      send(.log(level: level, message: String(message)))
    }
  }
}
