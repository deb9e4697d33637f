import AuthJSON
import AuthProtocol
import AuthValidation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

@testable import AuthDispatch

/// The fast path must answer exactly as the general path does: the same lines go through a server with it
/// and one without, and every answer must be byte-identical. The general path is the reference; the fast
/// path may decline any line, but must take most of the common ones (or the comparison would prove little).
@Suite struct FastPathDifferentialTests {
  static let lineCount = 50_000

  @Test func generatedAndMutatedLinesGetByteIdenticalAnswers() async throws {
    let fast = Pair.server(fast: true)
    let general = Pair.server(fast: false)
    var generator = RequestLineGenerator(seed: 0x5EED_F00D)
    var mismatches = 0
    for index in 0..<Self.lineCount {
      // Half a minute of work in a debug build: now and then the thread is left to other suites' tasks, which
      // on two cores would otherwise wait for it and overrun their hang guards.
      if index % 500 == 0 { await Task.yield() }
      let line = generator.line()
      let expected = general.answers(to: line)
      let actual = fast.answers(to: line)
      if actual != expected {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record(
            """
            line: \(String(decoding: line, as: UTF8.self))
            fast:    \(String(decoding: actual, as: UTF8.self))
            general: \(String(decoding: expected, as: UTF8.self))
            """)
        }
      }
    }
    #expect(mismatches == 0)
    // Not vacuous: the fast path answered most lines, and left some to the general path.
    let answeredFast = fast.sender.fastAnswers
    #expect(answeredFast > Self.lineCount / 4, "the fast path answered \(answeredFast) lines")
    #expect(answeredFast < Self.lineCount - Self.lineCount / 10)
  }

  @Test func everyBenchShapedLineTakesTheFastPath() {
    let fast = Pair.server(fast: true)
    let form = #""username":"alice_01","password":"Tr4nslucent-0wl!","email":"alice@example.com""#
    let lines = [
      #"{"jsonrpc":"2.0","id":1,"method":"validate","params":{"# + form + "}}",
      #"{"jsonrpc":"2.0","id":"x","method":"validate","params":{"username":" \tBob \n","locale":"zh-Hans"}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"validate","params":{"nickname":"al"}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"validate","params":{"username":5}}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"validateAll","params":{"username":"alice"}}"#,
      #"[{"jsonrpc":"2.0","id":5,"method":"validate","params":{"phone":"138 0013 8000"}},"#
        + #"{"jsonrpc":"2.0","id":6,"method":"validate"}]"#,
    ]
    for line in lines { _ = fast.answers(to: Array(line.utf8)) }
    #expect(fast.sender.fastAnswers == lines.count)
  }
}

/// The fast path reads the line through unchecked pointers, eight bytes at a time: each prefix of these lines
/// (every truncation) is placed so that it ends where an unreadable page begins, and a read past its end would
/// stop the test process. Answers must still match the general path's.
@Suite struct FastPathBoundsTests {
  static let lines = [
    #"{"jsonrpc":"2.0","id":"a\"b","method":"validate","params":{"username":"al\u0069ce_0\/1","#
      + #""email":"Alice@Example.COM","password":"Tr4nslucent-0wl!","locale":"zh-Hans","purpose":"login"}}"#,
    #"[{"jsonrpc":"2.0","id":1,"method":"validate","params":{"phone":"138 0013 8000","account":"bob"}},"#
      + #"{"jsonrpc":"2.0","id":-2.5e3,"method":"nope","params":[true,false,null]} ]"#,
    #" { "jsonrpc" : "2.0" , "id" : null , "method" : "validate" , "params" : { "code" : "12345678" } } "#,
    #"{"jsonrpc":"2.0","id":7,"method":"validate","params":{"username":"x\tyz\u0041\\"}}"#,
  ]

  @Test func everyPrefixEndingAtAnUnreadablePage() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let memory = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
    try #require(memory != MAP_FAILED)
    defer { munmap(memory, 2 * page) }
    try #require(mprotect(memory + page, page, PROT_NONE) == 0)
    let fast = Pair.server(fast: true)
    let general = Pair.server(fast: false)
    var compared = 0
    for line in Self.lines.map({ Array($0.utf8) }) {
      for length in 0...line.count {
        let prefix = Array(line[..<length])
        let start = (memory + page - length).assumingMemoryBound(to: UInt8.self)
        prefix.withUnsafeBufferPointer { start.initialize(from: $0.baseAddress!, count: length) }
        fast.server.receive(UnsafeBufferPointer(start: start, count: length))
        #expect(fast.sender.take() == general.answers(to: prefix), "\(String(decoding: prefix, as: UTF8.self))")
        compared += 1
      }
    }
    #expect(fast.sender.fastAnswers >= Self.lines.count, "the whole lines took the fast path")
    #expect(compared > 400)
  }

  /// An answer longer than the fast path's stack buffer (a long value echoed back, many long messages) is
  /// left to the general path; what the host gets is the same.
  @Test func answersTooLongForTheStackBufferAreTheGeneralPaths() {
    let fast = Pair.server(fast: true)
    let general = Pair.server(fast: false)
    let long = String(repeating: "a", count: AnswerBuffer.capacity)
    let lines = [
      #"{"jsonrpc":"2.0","id":1,"method":"validate","params":{"username":"\#(long)"}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"validate","params":{"email":"\#(long)@example.com"}}"#,
      #"{"jsonrpc":"2.0","id":"\#(long)","method":"validate","params":{"username":"bob"}}"#,
      #"[{"jsonrpc":"2.0","id":3,"method":"validate","params":{"username":"alice"}},"#
        + #"{"jsonrpc":"2.0","id":4,"method":"validate","params":{"account":"\#(long)"}}]"#,
    ]
    for line in lines.map({ Array($0.utf8) }) {
      #expect(fast.answers(to: line) == general.answers(to: line))
    }
    #expect(fast.sender.fastAnswers == 0)
    // Just under the bound, the fast path answers.
    let fits = String(repeating: "a", count: AnswerBuffer.capacity - 300)
    let line = Array(#"{"jsonrpc":"2.0","id":5,"method":"validate","params":{"username":"\#(fits)"}}"#.utf8)
    #expect(fast.answers(to: line) == general.answers(to: line))
    #expect(fast.sender.fastAnswers == 1)
  }
}

/// One server and what it sent for each line.
private struct Pair {
  let server: Server
  let sender: RecordingSender

  static func server(fast: Bool) -> Pair {
    let validators = ProfileValidators(policies: policies)
    var registry = MethodRegistry()
    registry.register(ValidateMethod(validators: validators))
    registry.register(DiscoverMethod())
    let sender = RecordingSender()
    let server = Server(
      registry: registry, sender: sender, errors: ErrorTranslator(), fastValidators: fast ? validators : nil)
    return Pair(server: server, sender: sender)
  }

  /// Profiles with each kind of policy: the defaults, the classic preset, other limits and code length,
  /// and a username pattern (which the fast path leaves to the general one).
  static let policies: [String: ValidationPolicy] = [
    "default": .standard,
    "work": .classic,
    // swift-format-ignore
    "short": try! ValidationPolicy(
      passwordMinLength: 4, passwordMaxLength: 12, usernameMinLength: 1, usernameMaxLength: 8, emailUnicode: false
    ).withCodeLength(8),
    "pattern": try! ValidationPolicy(usernamePattern: "[a-z]+"),
  ]

  /// Every byte the server sent in answer to `line`.
  func answers(to line: [UInt8]) -> [UInt8] {
    line.withUnsafeBufferPointer { server.receive($0) }
    return sender.take()
  }
}

/// Keeps the bytes of every message sent, as the output writer would frame them, and counts the ones the
/// fast path wrote (only it sends `.encoded` messages).
private final class RecordingSender: MessageSender {
  private let state = Mutex<(bytes: [UInt8], fast: Int)>(([], 0))

  func send(_ message: OutgoingMessage) {
    state.withLock { state in
      message.encode(into: &state.bytes)
      state.bytes.append(0x0A)
      if case .encoded = message { state.fast += 1 }
    }
  }

  func take() -> [UInt8] {
    state.withLock { state in
      defer { state.bytes = [] }
      return state.bytes
    }
  }

  var fastAnswers: Int { state.withLock { $0.fast } }
}
