import AuthJSON
import Testing

@testable import AuthProtocol

@Suite struct RPCErrorTests {
  @Test func jsonShapeIsCodeMessageDataInThatOrder() {
    let error = RPCError(.rateLimited, "Slow down.", details: ["retryAfter": 3, "reason": "too_many_in_flight"])
    #expect(
      JSONWriter.string(error.json)
        == #"{"code":-32005,"message":"Slow down.","data":{"kind":"rate_limited","retryable":true,"retryAfter":3,"reason":"too_many_in_flight"}}"#
    )
    #expect(error.code == -32005)
  }

  @Test func retryableDefaultsToTheKindAndCanBeOverridden() {
    #expect(RPCError(.timeout, "t").retryable)
    #expect(!RPCError(.invalidCredentials, "c").retryable)
    #expect(!RPCError(.timeout, "t", retryable: false).retryable)
    #expect(RPCError(.internal, "i", retryable: true).retryable)
    let json = RPCError(.internal, "i", retryable: true).json.objectValue?["data"]?.objectValue
    #expect(json?["retryable"] == true)
  }

  @Test func protocolErrorConstructors() {
    let parse = RPCError.parseError("unexpected character")
    #expect(parse.kind == .parseError)
    #expect(parse.code == -32700)
    #expect(parse.message == "Parse error: unexpected character.")
    let invalid = RPCError.invalidRequest("empty batch")
    #expect(invalid.code == -32600)
    #expect(invalid.message == "Invalid request: empty batch.")
    let missing = RPCError.methodNotFound("nope")
    #expect(
      JSONWriter.string(missing.json)
        == #"{"code":-32601,"message":"Method not found.","data":{"kind":"method_not_found","retryable":false,"method":"nope"}}"#
    )
  }

  @Test func methodNotFoundShortensHugeNames() {
    let error = RPCError.methodNotFound(String(repeating: "m", count: 10_000))
    #expect(error.details["method"]?.stringValue?.count == 100)
  }
}
