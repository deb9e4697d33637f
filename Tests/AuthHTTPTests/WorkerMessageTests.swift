import AuthSupport
import Foundation
import Testing

@testable import AuthHTTP

@Suite struct WorkerMessageTests {
  func roundTrip(_ message: WorkerMessage) throws -> WorkerMessage {
    let line = message.line
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
    return try WorkerMessage(line: Array(line.dropLast()))
  }

  @Test func base64MatchesFoundationForEveryLengthAndByte() {
    var generator = SystemRandomNumberGenerator()
    for count in 0..<200 {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let encoded = WireBase64.encode(bytes)
      #expect(encoded == Data(bytes).base64EncodedString())
      #expect(WireBase64.decode(encoded) == bytes)
    }
    for bad in ["A", "AB=C", "A===", "AB C", "AB\nC", "AB*=", "=AAA"] {
      #expect(WireBase64.decode(bad) == nil, "\(bad)")
    }
  }

  @Test func aRequestArrivesAsItWasSent() throws {
    let requests = [
      HTTPRequest(url: "https://a.example/x?y=1"),
      HTTPRequest(
        method: .post, url: "http://127.0.0.1:9/token", headers: [HTTPHeader("A", "1"), HTTPHeader("A", "2\u{E9}")],
        body: Array(0...255), redirects: .followSameOrigin(max: 0), idempotent: true),
      HTTPRequest(method: .put, url: "https://a/", body: [], redirects: .followSameOrigin(max: 5)),
    ]
    for request in requests {
      guard case .send(let id, let decoded) = try roundTrip(.send(id: 42, request: request)) else {
        Issue.record("not a send")
        continue
      }
      #expect(id == 42)
      #expect(decoded.method == request.method)
      #expect(decoded.url == request.url)
      #expect(decoded.headers == request.headers)
      #expect(decoded.body == request.body)
      #expect(decoded.redirects == request.redirects)
      #expect(decoded.idempotent == request.idempotent)
    }
  }

  @Test func answersArriveAsTheyWereSent() throws {
    let response = HTTPResponse(
      status: 302, headers: [HTTPHeader("set-cookie", "a=1"), HTTPHeader("set-cookie", "b=2")], body: [0, 10, 255],
      finalURL: "https://a/x")
    guard case .response(let id, let decoded) = try roundTrip(.response(id: Int64.max, response: response)) else {
      Issue.record("not a response")
      return
    }
    #expect(id == Int64.max)
    #expect(decoded.status == 302 && decoded.headers == response.headers && decoded.body == response.body)
    #expect(decoded.finalURL == "https://a/x")
    for code in HTTPError.Code.allCases {
      guard case .failure(7, let error) = try roundTrip(.failure(id: 7, error: HTTPError(code, "why"))) else {
        Issue.record("not a failure")
        continue
      }
      #expect(error == HTTPError(code, "why"))
    }
  }

  @Test func helloCarriesThePolicyExactly() throws {
    var policy = HTTPPolicy()
    policy.connectTimeout = .milliseconds(1500)
    policy.totalTimeout = .nanoseconds(123_456_789)
    policy.maxResponseBytes = 17
    policy.maxAttempts = 1
    policy.backoffBase = .microseconds(3)
    for sent in [HTTPPolicy(), policy] {
      guard case .hello(let received, let level) = try roundTrip(.hello(policy: sent, logLevel: .trace)) else {
        Issue.record("not a hello")
        continue
      }
      #expect(received == sent)
      #expect(level == .trace)
    }
  }

  @Test func cancelAndLog() throws {
    guard case .cancel(let id) = try roundTrip(.cancel(id: 9)) else {
      Issue.record("not a cancel")
      return
    }
    #expect(id == 9)
    let log = WorkerMessage.log(level: .debug, message: "http GET a:443/ → 200")
    guard case .log(let level, let message) = try roundTrip(log) else {
      Issue.record("not a log")
      return
    }
    #expect(level == .debug && message == "http GET a:443/ → 200")
  }

  @Test func unreadableLinesSayWhichRequestTheyConcernAndNeverEchoValues() {
    func failure(_ text: String) -> WorkerProtocolError? {
      do {
        _ = try WorkerMessage(line: Array(text.utf8))
        return nil
      } catch {
        return error
      }
    }
    #expect(failure("not json")?.id == nil)
    #expect(failure(#"{"type":"send","id":3,"url":"https://a/?code=SECRET"}"#)?.id == 3)
    #expect(failure(#"{"type":"send","id":3,"url":"https://a/?code=SECRET"}"#)?.detail.contains("SECRET") == false)
    #expect(failure(#"{"type":"hello","version":2}"#)?.detail.contains("version 2") == true)
    #expect(failure(#"{"type":"response","id":1,"status":200,"headers":[],"body":"!!","finalURL":"x"}"#) != nil)
    #expect(failure(#"{"type":"failure","id":1,"code":"nope","detail":""}"#) != nil)
    #expect(failure(#"{"type":"cancel","id":1,"id":2}"#) != nil)
  }

  /// Over-long lines are skipped whether they arrive in one read or across several (a pipe holds 64 KiB,
  /// the reader reads 64 KiB at a time), and the lines around them survive.
  @Test func theLineReaderSplitsLinesAndSkipsOverLongOnes() async throws {
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    let text =
      "one\n\(String(repeating: "x", count: 2_000))\n\(String(repeating: "y", count: 300_000))\ntwo\n"
      + "\(String(repeating: "z", count: 1_000))\nlast-without-newline"
    // From another thread: the pipe holds less than the text, so the reader must drain it as it is written.
    let writer = fds[1]
    let written = Task.detached { () -> Bool in
      defer { close(writer) }
      return writeAll(writer, Array(text.utf8), socket: false)
    }
    var reader = LineReader(fd: fds[0], maxLineBytes: 1_500)
    var events: [String] = []
    loop: while true {
      switch reader.next() {
      case .line(let bytes): events.append(String(decoding: bytes, as: UTF8.self))
      case .tooLong: events.append("<too long>")
      case .end: break loop
      }
    }
    close(fds[0])
    #expect(await written.value)
    #expect(events == ["one", "<too long>", "<too long>", "two", String(repeating: "z", count: 1_000)])
  }
}
