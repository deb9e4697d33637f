#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A POSIX pipe for feeding or capturing a descriptor in process; closes what is still open.
final class PosixPipe {
  private(set) var readFD: Int32
  private(set) var writeFD: Int32

  init() {
    var fds: [Int32] = [-1, -1]
    precondition(pipe(&fds) == 0, "pipe() failed")
    readFD = fds[0]
    writeFD = fds[1]
  }

  deinit {
    closeRead()
    closeWrite()
  }

  func closeRead() {
    if readFD >= 0 { close(readFD) }
    readFD = -1
  }

  func closeWrite() {
    if writeFD >= 0 { close(writeFD) }
    writeFD = -1
  }

  /// Whether bytes are waiting to be read, without blocking.
  var hasData: Bool {
    var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
    return poll(&fds, 1, 0) > 0 && fds[0].revents & Int16(POLLIN) != 0
  }

  /// Everything available now, without blocking.
  func readAvailable() -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while hasData {
      let count = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      out.append(contentsOf: buffer[..<count])
    }
    return out
  }

  /// Reads until end of file (the write end must be closed).
  func readToEnd() -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      out.append(contentsOf: buffer[..<count])
    }
    return out
  }

  func write(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { Glibc.write(writeFD, $0.baseAddress! + offset, $0.count - offset) }
      precondition(written > 0, "write to pipe failed")
      offset += written
    }
  }

  func write(_ text: String) { write(Array(text.utf8)) }
}

/// Writing to a pipe whose reader is gone must be an EPIPE, not a process-killing SIGPIPE.
/// The sidecar ignores SIGPIPE at start (`StdioGuard`); the test process does the same.
func ignoreSIGPIPE() {
  signal(SIGPIPE, SIG_IGN)
}
