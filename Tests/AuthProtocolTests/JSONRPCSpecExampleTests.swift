import AuthJSON
import Testing

@testable import AuthProtocol

/// The examples of the JSON-RPC 2.0 specification, §7 (https://www.jsonrpc.org/specification),
/// as the decoder classifies them. The answers they lead to are checked end to end through the
/// dispatcher in AuthDispatchTests/ServerSpecExampleTests.swift.
@Suite struct JSONRPCSpecExampleTests {
  @Test func rpcCallWithPositionalParameters() {
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
        == .single(.request(id: .number("1"), method: "subtract", params: [42, 23])))
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#)
        == .single(.request(id: .number("2"), method: "subtract", params: [23, 42])))
  }

  @Test func rpcCallWithNamedParameters() {
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#)
        == .single(.request(id: .number("3"), method: "subtract", params: json(#"{"subtrahend": 23, "minuend": 42}"#))))
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#)
        == .single(.request(id: .number("4"), method: "subtract", params: json(#"{"minuend": 42, "subtrahend": 23}"#))))
  }

  @Test func aNotification() {
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#)
        == .single(.notification(method: "update", params: [1, 2, 3, 4, 5])))
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "foobar"}"#)
        == .single(.notification(method: "foobar", params: nil)))
  }

  @Test func rpcCallOfNonExistentMethodIsStillARequest() {
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#)
        == .single(.request(id: .string("1"), method: "foobar", params: nil)))
  }

  @Test func rpcCallWithInvalidJSON() {
    #expect(Decoded.decode(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#) == .rejected(.parseError))
    #expect(Decoded.error(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)?.code == -32700)
  }

  @Test func rpcCallWithInvalidRequestObject() {
    #expect(
      Decoded.decode(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#)
        == .single(.invalid(id: .null, kind: .invalidRequest)))
    #expect(Decoded.error(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#)?.code == -32600)
  }

  @Test func rpcCallBatchWithInvalidJSON() {
    let text = #"""
      [
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method"
      ]
      """#
    #expect(Decoded.decode(text) == .rejected(.parseError))
  }

  @Test func rpcCallWithAnEmptyArray() {
    #expect(Decoded.decode("[]") == .rejected(.invalidRequest))
    #expect(Decoded.error("[]")?.code == -32600)
  }

  @Test func rpcCallWithAnInvalidBatchButNotEmpty() {
    #expect(Decoded.decode("[1]") == .batch([.invalid(id: .null, kind: .invalidRequest)]))
  }

  @Test func rpcCallWithInvalidBatch() {
    #expect(Decoded.decode("[1,2,3]") == .batch(Array(repeating: .invalid(id: .null, kind: .invalidRequest), count: 3)))
  }

  @Test func rpcCallBatch() {
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
    #expect(
      Decoded.decode(text)
        == .batch([
          .request(id: .string("1"), method: "sum", params: [1, 2, 4]),
          .notification(method: "notify_hello", params: [7]),
          .request(id: .string("2"), method: "subtract", params: [42, 23]),
          .invalid(id: .null, kind: .invalidRequest),
          .request(id: .string("5"), method: "foo.get", params: json(#"{"name": "myself"}"#)),
          .request(id: .string("9"), method: "get_data", params: nil),
        ]))
  }

  @Test func rpcCallBatchAllNotifications() {
    let text = #"""
      [
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
      ]
      """#
    #expect(
      Decoded.decode(text)
        == .batch([
          .notification(method: "notify_sum", params: [1, 2, 4]), .notification(method: "notify_hello", params: [7]),
        ]))
  }
}
