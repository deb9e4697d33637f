import Foundation

@testable import AuthJSON

/// Helpers shared by the AuthJSON suites.
enum JSONTestSupport {
  /// `Tests/Fixtures/JSONTestSuite`, found from this file so the tests run from any directory.
  static let corpusDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // AuthJSONTests
    .deletingLastPathComponent()  // Tests
    .appendingPathComponent("Fixtures/JSONTestSuite")

  struct CorpusFile: Sendable, CustomStringConvertible {
    let name: String
    let bytes: [UInt8]
    var description: String { name }
  }

  /// Every corpus file whose name starts with `prefix` (`y_`, `n_`, `i_`), sorted by name.
  static func corpus(_ prefix: String) -> [CorpusFile] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted().map { name in
      let data = FileManager.default.contents(atPath: corpusDirectory.appendingPathComponent(name).path) ?? Data()
      return CorpusFile(name: name, bytes: [UInt8](data))
    }
  }

  /// The parse error for `bytes`, or nil when they parse.
  static func failure(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONParseError? {
    do {
      _ = try JSONParser.parse(bytes, maxDepth: maxDepth)
      return nil
    } catch {
      return error
    }
  }

  static func failure(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONParseError? {
    failure(Array(text.utf8), maxDepth: maxDepth)
  }

  /// `depth` arrays nested around `inner`: `[[…inner…]]`.
  static func nestedArrays(_ depth: Int, inner: String = "", closed: Bool = true) -> [UInt8] {
    var bytes = [UInt8](repeating: UInt8(ascii: "["), count: depth)
    bytes.append(contentsOf: inner.utf8)
    if closed { bytes.append(contentsOf: [UInt8](repeating: UInt8(ascii: "]"), count: depth)) }
    return bytes
  }

  /// `depth` objects nested around `inner`: `{"a":{"a":…inner…}}`.
  static func nestedObjects(_ depth: Int, inner: String = "1", closed: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(depth * 6 + inner.utf8.count)
    for _ in 0..<depth { bytes.append(contentsOf: #"{"a":"#.utf8) }
    bytes.append(contentsOf: inner.utf8)
    if closed { bytes.append(contentsOf: [UInt8](repeating: UInt8(ascii: "}"), count: depth)) }
    return bytes
  }
}
