import Foundation
import Testing

/// The JSONTestSuite corpus through the real binary: every file is one LSP-framed message
/// (so embedded newlines stay inside it). `y_` files must not be parse errors, `n_` files
/// must be, and every file gets an answer while the process lives on.
@Suite struct JSONTestSuiteEndToEndTests {
  static let corpus = SidecarProcess.repositoryRoot.appendingPathComponent("Tests/Fixtures/JSONTestSuite")

  @Test func everyCorpusFileIsAnsweredCorrectly() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(names.count == 318)
    var input = Data()
    for (index, name) in names.enumerated() {
      let body = try Data(contentsOf: Self.corpus.appendingPathComponent(name))
      input.append(Data("Content-Length: \(body.count)\r\n\r\n".utf8))
      input.append(body)
      // A marker request after each file: proves the process is alive and keeps the answers aligned.
      let marker = Data(validateRequest(id: 1_000_000 + index, username: "marker").utf8)
      input.append(Data("Content-Length: \(marker.count)\r\n\r\n".utf8))
      input.append(marker)
    }
    let output = try SidecarProcess.run(["--framing", "lsp"], input: input)
    #expect(output.status == 0)
    let bodies = Self.lspBodies(output.stdout)
    var answersByFile: [Int: [Any]] = [:]
    var current = 0
    var pending: [Any] = []
    for body in bodies {
      let value = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
      if let object = value as? [String: Any], let id = object["id"] as? Int, id >= 1_000_000 {
        answersByFile[id - 1_000_000] = pending
        pending = []
        current += 1
      } else {
        pending.append(value)
      }
    }
    #expect(current == names.count, "every marker answered: the process never died or hung")
    var failures: [String] = []
    for (index, name) in names.enumerated() {
      let answers = answersByFile[index] ?? []
      let isParseError = answers.count == 1 && ((answers[0] as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int == -32700
      if name.hasPrefix("y_"), answers.isEmpty || isParseError { failures.append("\(name): \(answers)") }
      if name.hasPrefix("n_"), !isParseError { failures.append("\(name): \(answers)") }
      if name.hasPrefix("i_"), answers.count != 1 { failures.append("\(name): \(answers)") }
    }
    #expect(failures.isEmpty, "\(failures.count) files misanswered: \(failures.prefix(10))")
  }

  static func lspBodies(_ data: Data) -> [Data] {
    var bodies: [Data] = []
    var rest = data[...]
    let separator = Data("\r\n\r\n".utf8)
    while let range = rest.range(of: separator) {
      let header = String(decoding: rest[rest.startIndex..<range.lowerBound], as: UTF8.self)
      let length = Int(header.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
      let start = range.upperBound
      bodies.append(Data(rest[start..<start + length]))
      rest = rest[(start + length)...]
    }
    return bodies
  }
}
