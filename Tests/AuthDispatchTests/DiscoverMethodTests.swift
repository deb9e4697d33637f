import AuthJSON
import Testing

@testable import AuthDispatch

@Suite struct DiscoverMethodTests {
  @Test func rpcDiscoverReturnsTheEmbeddedDocument() throws {
    let harness = ServerHarness()
    harness.request("rpc.discover", id: "1")
    harness.request("rpc.discover", id: "2", params: #"{"profile":"work"}"#)
    let answers = harness.sender.messages
    let schema = try SchemaFile.document()
    #expect(answers.count == 2)
    for answer in answers {
      #expect(SchemaFile.firstDifference(answer.result ?? .null, schema) == nil)
    }
    #expect(answers.first?.result?["openrpc"]?.stringValue?.hasPrefix("1.") == true)
  }

  @Test func rpcDiscoverTakesNoOtherParams() {
    let harness = ServerHarness()
    harness.request("rpc.discover", id: "1", params: #"{"verbose":true}"#)
    #expect(harness.sender.messages.first?.errorData?["field"] == "verbose")
  }

  @Test func theSchemaDescribesTheRegisteredProductMethods() throws {
    let names = try SchemaFile.document()["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    #expect(names.contains(ValidateMethod.name))
    #expect(names.contains(DiscoverMethod.name))
  }
}
