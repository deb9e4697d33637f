/// A JSON value already serialized by `JSONWriter` (or by code that writes the same compact
/// form). Hot paths build their answers straight into bytes instead of allocating a
/// `JSONValue` tree that would be walked once and thrown away.
package struct EncodedJSON: Sendable, Equatable {
  package private(set) var bytes: [UInt8]

  /// - Important: `bytes` must be one complete, compact JSON value.
  package init(trustedBytes bytes: [UInt8]) { self.bytes = bytes }

  package init(_ value: JSONValue) { bytes = JSONWriter.encode(value) }

  package static let null = EncodedJSON(trustedBytes: Array("null".utf8))

  /// The value as a tree, for tests and tools (parsing costs; never on the request path).
  package var value: JSONValue { (try? JSONParser.parse(bytes, maxDepth: 512)) ?? .null }
}
