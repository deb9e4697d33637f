import AuthDispatch
import AuthJSON
import AuthProtocol
import AuthValidation
import Foundation
import Testing

@testable import AuthDispatch

/// A `Server` in process: the product's `validate` and `rpc.discover`, the test methods, and a
/// capturing sender.
struct ServerHarness {
  let sender = CapturingSender()
  let log = EventLog()
  let gates = Gates()
  let server: Server
  let reported = EventLog()
  private let barriers = Counter()

  init(limits: Server.Limits = Server.Limits(), extra: (inout MethodRegistry) -> Void = { _ in }) {
    var registry = MethodRegistry()
    registry.register(ValidateMethod(validators: Self.validators))
    registry.register(DiscoverMethod())
    registry.register(SleepMethod())
    registry.register(GateMethod(gates: gates, log: log))
    registry.register(RecordMethod(gates: gates, log: log))
    registry.register(FailMethod())
    extra(&registry)
    let reported = self.reported
    server = Server(
      registry: registry, sender: sender, limits: limits, errors: ErrorTranslator(report: { reported.append($0) }))
  }

  /// The profiles `validate` knows: "work" uses the classic password preset.
  static let validators = ProfileValidators(policies: ["default": .standard, "b": .standard, "work": .classic])

  /// Hands one framed message to the server, as the transport's reader thread does.
  func receive(_ text: String) {
    Array(text.utf8).withUnsafeBufferPointer { server.receive($0) }
  }

  /// A request line for `method` with `params` (JSON text) and `id` (JSON text).
  static func request(_ method: String, id: String, params: String? = nil) -> String {
    #"{"jsonrpc":"2.0","id":"# + id + #","method":""# + method + #"""# + (params.map { #","params":"# + $0 } ?? "")
      + "}"
  }

  static func notification(_ method: String, params: String? = nil) -> String {
    #"{"jsonrpc":"2.0","method":""# + method + #"""# + (params.map { #","params":"# + $0 } ?? "") + "}"
  }

  func request(_ method: String, id: String, params: String? = nil) {
    receive(Self.request(method, id: id, params: params))
  }
  func notify(_ method: String, params: String? = nil) { receive(Self.notification(method, params: params)) }

  /// A barrier for a test that asserts nothing (more) was sent: sends a `sleep {ms: 0}` request and waits for
  /// its answer. `receive` decodes and dispatches each message on the calling thread, in arrival order, so once
  /// the barrier is answered every earlier message has been dispatched (cancels applied, inline answers out),
  /// and a task started after every earlier request's task has run to its end. The barrier's answer is not
  /// among `sender.messages`. Use it where requests are meant to stay pending; otherwise `settle()`.
  func barrier(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let id = CapturingSender.barrierPrefix + String(barriers.increment())
    request("sleep", id: #"""# + id + #"""#, params: #"{"ms":0}"#)
    try await sender.waitForBarrier(id, sourceLocation: sourceLocation)
  }

  /// The strongest barrier, for a test where nothing is meant to stay pending: a `validate` request, which is
  /// answered on the calling thread, so once it is answered every earlier message has been dispatched; then
  /// `drain` until no task is left (notifications' tasks included; a task's answer is out before it leaves).
  /// After it, the server has sent everything it ever will for the input so far. Returns what was sent.
  @discardableResult
  func settle(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [JSONValue] {
    let id = CapturingSender.barrierPrefix + String(barriers.increment())
    request("validate", id: #"""# + id + #"""#, params: #"{"username":"abc"}"#)
    try await sender.waitForBarrier(id, sourceLocation: sourceLocation)
    // The timeout is a hang guard: nothing in a settled test waits on a gate.
    await drain(timeoutMilliseconds: 120_000)
    return sender.messages
  }

  /// Calls `drain` on its own thread: it blocks, and must not hold a thread the tasks it waits for need.
  func drain(timeoutMilliseconds: Int) async {
    let server = self.server
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread {
        server.drain(timeoutMilliseconds: timeoutMilliseconds)
        continuation.resume()
      }.start()
    }
  }
}

/// Reading answers.
extension JSONValue {
  subscript(key: String) -> JSONValue? { objectValue?[key] }

  /// The answer's id; a missing id reads as the string "‹missing›" so it never passes for null.
  var id: JSONValue { self["id"] ?? "‹missing›" }
  var result: JSONValue? { self["result"] }
  var errorCode: Int? {
    guard case .number(let n)? = self["error"]?["code"] else { return nil }
    return n.int64Value.map(Int.init)
  }
  var errorKind: String? { self["error"]?["data"]?["kind"]?.stringValue }
  var errorData: JSONValue? { self["error"]?["data"] }
}

/// Parses JSON that the test itself wrote.
func json(_ text: String) -> JSONValue {
  guard let value = try? JSONParser.parse(text, maxDepth: 512) else {
    preconditionFailure("test JSON does not parse: \(text)")
  }
  return value
}

/// The answer with this id among `messages`.
func answer(_ id: JSONValue, in messages: [JSONValue]) -> JSONValue? {
  messages.first { $0.id == id }
}
