#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthProtocol

/// The read loop: stdin → framer → receiver, until EOF or a shutdown signal.
package struct StdioTransport {
  package struct Options: Sendable {
    package var framing: FramingMode = .auto
    package var maxMessageBytes = 1 << 20
    /// How long in-flight requests may take to finish after input ends.
    package var drainTimeoutMilliseconds = 10_000
    package init() {}
  }

  private let inputFD: Int32
  private let stopFD: Int32
  private let output: OutputWriter
  private let options: Options

  package init(inputFD: Int32, stopFD: Int32, output: OutputWriter, options: Options) {
    self.inputFD = inputFD
    self.stopFD = stopFD
    self.output = output
    self.options = options
  }

  /// Serves until input ends or a shutdown signal arrives, then lets in-flight work answer.
  package func run(receiver: any MessageReceiver) {
    var framer = Framer(mode: options.framing, maxMessageBytes: options.maxMessageBytes)
    let capacity = 1 << 16
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    func deliver(_ event: FrameEvent) {
      // A host that cannot read answers gets no more requests executed, even ones already read.
      if output.isBroken, case .message = event { return }
      switch event {
      case .message(let body): receiver.receive(body)
      case .oversized: receiver.receiveOversized(limit: options.maxMessageBytes)
      case .framingError(let detail): receiver.receiveFramingError(detail)
      case .framingDetected(let mode): output.setMode(mode)
      }
    }

    while waitForInput() {
      let count = read(inputFD, buffer.baseAddress, capacity)
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        break
      }
      if count == 0 { break }
      output.beginBatch()
      framer.process(UnsafeBufferPointer(rebasing: buffer[..<count]), deliver)
      output.endBatch()
    }
    // From here the drain bound holds even if a write to the host blocks for good.
    ShutdownSignal.armDeadline()
    output.beginBatch()
    framer.finish(deliver)
    output.endBatch()
    receiver.drain(timeoutMilliseconds: options.drainTimeoutMilliseconds)
    output.flush()
  }

  /// Blocks until stdin is readable (or closed); false when a shutdown signal arrived or the
  /// host closed its end of stdout (a pipe's write end reports POLLERR then, a socket POLLHUP),
  /// which is checked first, so no request read after that is started.
  private func waitForInput() -> Bool {
    // Events 0: only the error conditions poll always reports are wanted for stdout.
    var fds = [pollfd(fd: output.fd, events: 0, revents: 0), pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)]
    if stopFD >= 0 { fds.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)) }
    while true {
      let ready = poll(&fds, nfds_t(fds.count), -1)
      if ready < 0, errno == EINTR { continue }
      if ready < 0 { return !output.isBroken }  // let read() report the problem
      if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 {
        output.markBroken()
        return false
      }
      if fds.count > 2, fds[2].revents != 0 { return false }
      return !output.isBroken
    }
  }
}
