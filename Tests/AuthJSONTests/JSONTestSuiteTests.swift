import Testing

@testable import AuthJSON

/// The JSONTestSuite parsing corpus (Tests/Fixtures/JSONTestSuite), in process.
@Suite struct JSONTestSuiteTests {
  static let accepted = JSONTestSupport.corpus("y_")
  static let rejected = JSONTestSupport.corpus("n_")
  static let undefined = JSONTestSupport.corpus("i_")

  @Test("the corpus is all there: 95 y_, 188 n_, 35 i_ files")
  func corpusIsComplete() {
    #expect(Self.accepted.count == 95, "y_ files found in \(JSONTestSupport.corpusDirectory.path)")
    #expect(Self.rejected.count == 188, "n_ files found in \(JSONTestSupport.corpusDirectory.path)")
    #expect(Self.undefined.count == 35, "i_ files found in \(JSONTestSupport.corpusDirectory.path)")
  }

  @Test("every y_ file (95) parses")
  func everyAcceptedFileParses() {
    let failing = Self.accepted.filter { JSONTestSupport.failure($0.bytes) != nil }.map(\.name)
    #expect(failing.isEmpty, "\(Self.accepted.count - failing.count)/\(Self.accepted.count) y_ files parse")
  }

  @Test("every n_ file (188) is rejected as .syntax")
  func everyRejectedFileIsASyntaxError() {
    var failing: [String] = []
    for file in Self.rejected where JSONTestSupport.failure(file.bytes)?.reason != .syntax {
      failing.append(file.name)
    }
    #expect(failing.isEmpty, "\(Self.rejected.count - failing.count)/\(Self.rejected.count) n_ files give .syntax")
  }

  @Test("every i_ file (35) returns or throws")
  func everyUndefinedFileIsDecided() {
    var acceptedCount = 0
    var rejectedCount = 0
    for file in Self.undefined {
      if JSONTestSupport.failure(file.bytes) == nil { acceptedCount += 1 } else { rejectedCount += 1 }
    }
    #expect(acceptedCount + rejectedCount == 35, "i_ files: \(acceptedCount) accepted, \(rejectedCount) rejected")
    // Only the ten huge/tiny numbers are accepted (kept as lexemes); every encoding oddity is refused.
    #expect(acceptedCount == 10, "i_ files: \(acceptedCount) accepted, \(rejectedCount) rejected")
  }

  /// Our decision for each implementation-defined file, pinned so a change is deliberate.
  @Test(arguments: undefined)
  func undefinedFileDecision(file: JSONTestSupport.CorpusFile) {
    let error = JSONTestSupport.failure(file.bytes)
    if file.name.hasPrefix("i_number_") {
      #expect(error == nil, "numbers of any size are kept as their lexeme")
    } else if file.name == "i_structure_500_nested_arrays.json" {
      #expect(error?.reason == .tooDeep)
    } else {
      // BOMs, UTF-16, invalid UTF-8 and lone surrogates: not UTF-8 JSON text we accept.
      #expect(error?.reason == .syntax)
    }
  }

  @Test("parse → write → parse round-trips every y_ file (95)")
  func roundTripOverAcceptedFiles() throws {
    var failing: [String] = []
    for file in Self.accepted {
      let value = try JSONParser.parse(file.bytes)
      let written = JSONWriter.encode(value)
      guard let reparsed = try? JSONParser.parse(written), reparsed == value,
        JSONWriter.encode(reparsed) == written
      else {
        failing.append(file.name)
        continue
      }
    }
    #expect(failing.isEmpty, "\(Self.accepted.count - failing.count)/\(Self.accepted.count) y_ files round-trip")
  }
}
