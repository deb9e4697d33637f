import AuthProtocol
import Foundation
import Testing

/// The schema is the contract: every error kind the code can answer must be in it, with the
/// code the code uses, and no kind may be in it that the code cannot produce.
@Suite struct SchemaCoverageTests {
  static var schema: [String: Any] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("schema/openrpc.json")
    let data = (try? Data(contentsOf: url)) ?? Data()
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
  }

  @Test(arguments: ErrorKind.allCases)
  func everyErrorKindIsInTheSchemaWithItsCode(_ kind: ErrorKind) throws {
    let errors = try #require((Self.schema["components"] as? [String: Any])?["errors"] as? [String: Any])
    let entry = try #require(errors[kind.rawValue] as? [String: Any], "schema lacks error kind \(kind.rawValue)")
    #expect(entry["code"] as? Int == kind.code)
  }

  @Test func theSchemaHasNoErrorKindTheCodeLacks() throws {
    let errors = try #require((Self.schema["components"] as? [String: Any])?["errors"] as? [String: Any])
    #expect(Set(errors.keys) == Set(ErrorKind.allCases.map(\.rawValue)))
  }
}
