import AuthJSON
import AuthProtocol

/// `rpc.discover`: the OpenRPC document of this build (schema/openrpc.json, embedded).
package struct DiscoverMethod: InlineMethod {
  package static let name = "rpc.discover"

  /// Parsed on first use only: cold start pays nothing for a method most hosts never call.
  private static let document: EncodedJSON = {
    guard let value = try? JSONParser.parse(OpenRPCDocument.text, maxDepth: 256) else {
      preconditionFailure("the embedded OpenRPC document is not valid JSON; run scripts/embed-schema")
    }
    return EncodedJSON(value)
  }()

  package init() {}

  package func call(_ params: Params, context: CallContext) throws -> EncodedJSON {
    try params.allowOnly([])
    return Self.document
  }
}
