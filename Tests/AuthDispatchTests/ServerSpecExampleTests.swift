import AuthJSON
import AuthProtocol
import Testing

@testable import AuthDispatch

/// The JSON-RPC 2.0 specification's examples (§7, https://www.jsonrpc.org/specification) through
/// the dispatcher, with the spec's methods registered. One deliberate difference: every method
/// of this product takes a params object, so positional params answer -32602 where the spec's
/// `subtract` would compute; named params compute as in the spec.
@Suite struct ServerSpecExampleTests {
  struct Subtract: AsyncMethod {
    static let name = "subtract"
    let ordering = SessionOrdering.independent
    func call(_ params: Params, context: CallContext) async throws -> JSONValue {
      try params.allowOnly(["minuend", "subtrahend"])
      guard let minuend = params.int("minuend"), let subtrahend = params.int("subtrahend") else {
        throw RPCError.invalidParams("minuend and subtrahend are required")
      }
      return .number(JSONNumber(minuend - subtrahend))
    }
  }

  struct GetData: InlineMethod {
    static let name = "get_data"
    func call(_ params: Params, context: CallContext) throws -> EncodedJSON { EncodedJSON(["hello", 5]) }
  }

  struct Named: InlineMethod {
    static let name = "update"
    func call(_ params: Params, context: CallContext) throws -> EncodedJSON { .null }
  }

  struct Sum: InlineMethod {
    static let name = "sum"
    func call(_ params: Params, context: CallContext) throws -> EncodedJSON { .null }
  }

  static func harness() -> ServerHarness {
    ServerHarness { registry in
      registry.register(Subtract())
      registry.register(GetData())
      registry.register(Named())
      registry.register(Sum())
    }
  }

  static func answers(to text: String, expecting count: Int) async throws -> [JSONValue] {
    let harness = harness()
    harness.receive(text)
    try await harness.sender.wait(for: count)
    let sent = try await harness.settle()
    #expect(sent.count == count, "no more answers than expected")
    return sent
  }

  @Test func rpcCallWithNamedParameters() async throws {
    let first = try await Self.answers(
      to: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
      expecting: 1)
    #expect(first == [json(#"{"jsonrpc": "2.0", "id": 3, "result": 19}"#)])
    let second = try await Self.answers(
      to: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
      expecting: 1)
    #expect(second == [json(#"{"jsonrpc": "2.0", "id": 4, "result": 19}"#)])
  }

  @Test func rpcCallWithPositionalParametersIsInvalidParamsHere() async throws {
    let answers = try await Self.answers(
      to: #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, expecting: 1)
    #expect(answers.first?.id == 1)
    #expect(answers.first?.errorCode == -32602)
  }

  @Test func aNotification() async throws {
    let harness = Self.harness()
    harness.receive(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#)
    harness.receive(#"{"jsonrpc": "2.0", "method": "foobar"}"#)
    #expect(try await harness.settle().count == 0)
  }

  @Test func rpcCallOfNonExistentMethod() async throws {
    let answers = try await Self.answers(to: #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#, expecting: 1)
    #expect(answers.first?.id == "1")
    #expect(answers.first?.errorCode == -32601)
    #expect(answers.first?["error"]?["message"] == "Method not found.")
  }

  @Test func rpcCallWithInvalidJSON() async throws {
    let answers = try await Self.answers(
      to: #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#, expecting: 1)
    #expect(answers.first?.id == .null)
    #expect(answers.first?.errorCode == -32700)
  }

  @Test func rpcCallWithInvalidRequestObject() async throws {
    let answers = try await Self.answers(to: #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#, expecting: 1)
    #expect(answers.first?.id == .null)
    #expect(answers.first?.errorCode == -32600)
  }

  @Test func rpcCallBatchInvalidJSON() async throws {
    let answers = try await Self.answers(
      to: #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]"#,
      expecting: 1)
    #expect(answers.first?.arrayValue == nil, "a single error, not an array")
    #expect(answers.first?.id == .null)
    #expect(answers.first?.errorCode == -32700)
  }

  @Test func rpcCallWithAnEmptyArray() async throws {
    let answers = try await Self.answers(to: "[]", expecting: 1)
    #expect(answers.first?.arrayValue == nil, "a single error, not an array")
    #expect(answers.first?.id == .null)
    #expect(answers.first?.errorCode == -32600)
  }

  @Test func rpcCallWithAnInvalidBatchButNotEmpty() async throws {
    let answers = try await Self.answers(to: "[1]", expecting: 1)
    let batch = try #require(answers.first?.arrayValue)
    #expect(batch.map(\.id) == [.null])
    #expect(batch.map(\.errorCode) == [-32600])
  }

  @Test func rpcCallWithInvalidBatch() async throws {
    let answers = try await Self.answers(to: "[1,2,3]", expecting: 1)
    let batch = try #require(answers.first?.arrayValue)
    #expect(batch.map(\.id) == [.null, .null, .null])
    #expect(batch.map(\.errorCode) == [-32600, -32600, -32600])
  }

  @Test func rpcCallBatch() async throws {
    let text = #"""
      [
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
      ]
      """#
    let answers = try await Self.answers(to: text, expecting: 1)
    let batch = try #require(answers.first?.arrayValue)
    #expect(batch.map(\.id) == ["1", "2", .null, "5", "9"])
    #expect(batch.map(\.errorCode) == [-32602, -32602, -32600, -32601, nil], "positional params are refused here")
    #expect(batch[4] == json(#"{"jsonrpc": "2.0", "id": "9", "result": ["hello", 5]}"#))
  }

  @Test func rpcCallBatchWithNamedParams() async throws {
    let text = #"""
      [
        {"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": "2"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
      ]
      """#
    let answers = try await Self.answers(to: text, expecting: 1)
    let batch = try #require(answers.first?.arrayValue)
    #expect(batch.count == 3)
    #expect(batch[0] == json(#"{"jsonrpc": "2.0", "id": "2", "result": 19}"#))
    #expect(batch[1].id == .null)
    #expect(batch[1].errorCode == -32600)
    #expect(batch[2] == json(#"{"jsonrpc": "2.0", "id": "9", "result": ["hello", 5]}"#))
  }

  @Test func rpcCallBatchAllNotifications() async throws {
    let harness = Self.harness()
    harness.receive(
      #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#
    )
    #expect(try await harness.settle().count == 0)
  }
}
