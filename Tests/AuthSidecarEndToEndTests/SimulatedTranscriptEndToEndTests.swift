import Foundation
import Testing

/// Transcripts through the `simulated` provider are byte-stable in test mode: each of examples/golden's transcripts,
/// run twice in fresh state directories, gives the same bytes both times, and the bytes its recipes expect.
@Suite struct SimulatedTranscriptEndToEndTests {
  static let directory = SidecarProcess.repositoryRoot.appendingPathComponent("examples/golden")

  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".in.jsonl") }.sorted()
  }

  @Test func thereAreGoldenTranscripts() { #expect(Self.names.count >= 2) }

  @Test(arguments: names) func twoRunsAreByteIdentical(_ name: String) throws {
    let input = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    let first = try Self.run(input)
    let second = try Self.run(input)
    #expect(first.status == 0 && second.status == 0)
    #expect(first.lines.count > 10, "\(name): a transcript worth comparing")
    #expect(first.stdout == second.stdout, "\(name): the two runs differ")
    let expectedName = name.replacingOccurrences(of: ".in.", with: ".out.")
    let expected = try Data(contentsOf: Self.directory.appendingPathComponent(expectedName))
    #expect(first.stdout == expected, "\(name): differs from its recorded answers")
  }

  /// As the recipes run it: test mode, the golden config, a fixed clock, a state directory of its own.
  static func run(_ input: Data) throws -> SidecarProcess.Output {
    let fixture = try StateFixture("golden")
    defer { fixture.remove() }
    let config = directory.appendingPathComponent("config.json").path
    let arguments = ["--config", config, "--test-clock", "2027-01-01T00:00:00Z"]
    return try SidecarProcess.runLockstep(arguments, input: input, environment: fixture.environment)
  }
}
