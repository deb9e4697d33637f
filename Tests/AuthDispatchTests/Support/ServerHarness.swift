import AuthDispatch
import AuthJSON
import AuthProtocol
import AuthValidation
import Foundation

@testable import AuthDispatch

/// A `Server` in process: the product's `validate` and `rpc.discover`, the test methods, and a
/// capturing sender.
struct ServerHarness {
  let sender = CapturingSender()
  let log = EventLog()
  let gates = Gates()
  let server: Server
  let reported = EventLog()

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
