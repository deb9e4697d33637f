import Foundation
import Testing

/// Every method the binary registers (as `status` reports them) is described in
/// schema/openrpc.json, and every method the schema describes is served.
@Suite struct SchemaMethodsEndToEndTests {
  @Test func registeredMethodsMatchTheSchema() throws {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let output = try SidecarProcess.run(
      ["--test-clock", "2027-01-01T00:00:00Z", "--state-dir", state.path],
      input: Data(#"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}"#.utf8 + [0x0A]),
      environment: ["AUTH_SIDECAR_TEST_MODE": "1"])
    let result = try #require(SidecarProcess.json(output.lines.first ?? "")["result"] as? [String: Any])
    let served = Set(try #require((result["capabilities"] as? [String: Any])?["methods"] as? [String]))

    let schemaURL = SidecarProcess.repositoryRoot.appendingPathComponent("schema/openrpc.json")
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
    let described = Set((schema["methods"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    let testOnly = Set((schema["x-test-methods"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    #expect(served.subtracting(described.union(testOnly)).isEmpty, "served but not in the schema")
    #expect(described.subtracting(served).isEmpty, "in the schema but not served")
  }
}
