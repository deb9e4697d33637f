import AuthJSON
import Testing

@testable import AuthDispatch

/// The embedded copy of schema/openrpc.json must not go stale: scripts/embed-schema rewrites it.
@Suite struct OpenRPCDocumentTests {
  @Test("OpenRPCDocument.swift is schema/openrpc.json, compacted (run scripts/embed-schema if not)")
  func embeddedDocumentIsTheSchema() throws {
    let embedded = try JSONParser.parse(OpenRPCDocument.text, maxDepth: 512)
    let schema = try SchemaFile.document()
    let difference = SchemaFile.firstDifference(embedded, schema)
    #expect(difference == nil, "the embedded OpenRPC document is stale at \(difference ?? "")")
    #expect(!OpenRPCDocument.text.contains("\n"), "embedded compactly, on one line")
  }
}
