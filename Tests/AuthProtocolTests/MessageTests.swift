import AuthJSON
import Testing

@testable import AuthProtocol

@Suite struct MessageTests {
  @Test func outgoingMessageShapes() {
    func text(_ message: OutgoingMessage) -> String { String(decoding: message.encoded, as: UTF8.self) }
    #expect(text(OutgoingMessage.result(id: .number("1"), ["ok"])) == #"{"jsonrpc":"2.0","id":1,"result":["ok"]}"#)
    #expect(
      text(.error(id: .null, .invalidRequest("x")))
        == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: x.","data":{"kind":"invalid_request","retryable":false}}}"#
    )
    #expect(
      text(.notification(method: "sessionChanged", params: ["profile": "default", "state": "loggedIn"]))
        == #"{"jsonrpc":"2.0","method":"sessionChanged","params":{"profile":"default","state":"loggedIn"}}"#)
    let batch = OutgoingMessage.batch([
      .result(id: .string("a"), EncodedJSON.null), .error(id: .number("2"), .parseError("x")),
    ])
    #expect(
      text(batch)
        == #"[{"jsonrpc":"2.0","id":"a","result":null},{"jsonrpc":"2.0","id":2,"error":{"code":-32700,"message":"Parse error: x.","data":{"kind":"parse_error","retryable":false}}}]"#
    )
    #expect(batch.json.arrayValue?.count == 2)
    #expect(
      OutgoingMessage.result(id: .null, JSONValue.object(["x": 1])).json
        == json(#"{"jsonrpc":"2.0","id":null,"result":{"x":1}}"#))
  }
}
