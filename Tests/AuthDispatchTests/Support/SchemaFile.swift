import AuthJSON
import Foundation
import Testing

/// schema/openrpc.json, read from the repository next to these tests.
enum SchemaFile {
  static let url = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // AuthDispatchTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("schema/openrpc.json")

  static func document() throws -> JSONValue {
    let data = try #require(FileManager.default.contents(atPath: url.path), "read \(url.path)")
    return try JSONParser.parse([UInt8](data), maxDepth: 512)
  }

  /// The JSON Pointer of the first place where two documents differ (member order aside), or
  /// nil when they are the same JSON value. Keeps a failure message short on a large document.
  static func firstDifference(_ a: JSONValue, _ b: JSONValue, at path: String = "") -> String? {
    switch (a, b) {
    case (.object(let x), .object(let y)):
      for key in Set(x.keys).union(y.keys).sorted() {
        guard let left = x[key], let right = y[key] else { return path + "/" + key }
        if let found = firstDifference(left, right, at: path + "/" + key) { return found }
      }
      return nil
    case (.array(let x), .array(let y)):
      for (index, pair) in zip(x, y).enumerated() {
        if let found = firstDifference(pair.0, pair.1, at: path + "/\(index)") { return found }
      }
      return x.count == y.count ? nil : path + "/\(min(x.count, y.count))"
    default:
      return a == b ? nil : (path.isEmpty ? "/" : path)
    }
  }
}
