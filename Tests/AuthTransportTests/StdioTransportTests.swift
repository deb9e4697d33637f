import AuthJSON
import AuthProtocol
import Synchronization
import Testing

@testable import AuthTransport

/// A receiver that records what the transport delivers and answers each message with its text.
final class RecordingReceiver: MessageReceiver {
  private let log = Mutex<[String]>([])
  private let output: OutputWriter

  init(output: OutputWriter) { self.output = output }

  var events: [String] { log.withLock { $0 } }

  func receive(_ body: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: body, as: UTF8.self)
    log.withLock { $0.append("message \(text)") }
    output.send(.result(id: .null, JSONValue.string(text)))
  }

  func receiveOversized(limit: Int) { log.withLock { $0.append("oversized \(limit)") } }
  func receiveFramingError(_ detail: String) { log.withLock { $0.append("framingError") } }
  func drain(timeoutMilliseconds: Int) { log.withLock { $0.append("drain \(timeoutMilliseconds)") } }
}

@Suite struct StdioTransportTests {
  /// Runs the transport over `input` until end of file; returns what the receiver saw and the output.
  static func serve(_ input: String, framing: FramingMode = .auto, maxMessageBytes: Int = 1 << 20) -> (
    events: [String], output: String
  ) {
    let stdin = PosixPipe()
    let stdout = PosixPipe()
    stdin.write(input)
    stdin.closeWrite()
    let writer = OutputWriter(fd: stdout.writeFD, mode: framing)
    let receiver = RecordingReceiver(output: writer)
    var options = StdioTransport.Options()
    options.framing = framing
    options.maxMessageBytes = maxMessageBytes
    options.drainTimeoutMilliseconds = 5
    StdioTransport(inputFD: stdin.readFD, stopFD: -1, output: writer, options: options).run(receiver: receiver)
    return (receiver.events, String(decoding: stdout.readAvailable(), as: UTF8.self))
  }

  @Test func linesInLinesOutThenDrain() {
    let (events, output) = Self.serve(
      "{}\n\n[1]\n" + String(repeating: "x", count: 50) + "\n\"last\"", maxMessageBytes: 10)
    #expect(events == ["message {}", "message [1]", "oversized 10", "message \"last\"", "drain 5"])
    #expect(output.split(separator: "\n").count == 3)
  }

  @Test func lspInputIsAnsweredWithLSPFraming() {
    let (events, output) = Self.serve("Content-Length: 2\r\n\r\n{}")
    #expect(events == ["message {}", "drain 5"])
    let body = #"{"jsonrpc":"2.0","id":null,"result":"{}"}"#
    #expect(output == "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
  }

  @Test func explicitFramingIsUsedAsIs() {
    let (events, _) = Self.serve("Content-Length: 2\r\n\r\n{}", framing: .ndjson)
    #expect(events == ["message Content-Length: 2", "message {}", "drain 5"])
  }

  @Test func emptyInputOnlyDrains() {
    let (events, output) = Self.serve("")
    #expect(events == ["drain 5"])
    #expect(output.isEmpty)
  }
}
