import Foundation
import Testing

/// Golden transcripts: `Transcripts/<name>.in.<ext>` is fed to the real binary and its stdout
/// must equal `<name>.out.<ext>` byte for byte. `<name>.args` (one argument per line) adds
/// command-line options; `<name>.config.json` is passed as `--config`. Every transcript gets a
/// fresh state directory and may use test mode (AUTH_SIDECAR_TEST_MODE=1 is set).
/// `session-*` transcripts run in lockstep, as a host awaiting each answer would: each request
/// is sent only after the previous one is answered, so whole sessions are byte-stable.
/// `RECORD_TRANSCRIPTS=1 swift test` rewrites the expected files; a transcript without an
/// expected file fails once after recording it.
@Suite struct TranscriptEndToEndTests {
  static let directory = SidecarProcess.repositoryRoot.appendingPathComponent("Tests/AuthSidecarEndToEndTests/Transcripts")

  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.contains(".in.") }.sorted()
  }

  @Test func transcriptsExist() {
    #expect(Self.names.count >= 8)
  }

  @Test(arguments: names) func transcript(_ inputName: String) throws {
    let input = try Data(contentsOf: Self.directory.appendingPathComponent(inputName))
    let base = String(inputName[..<inputName.range(of: ".in.")!.lowerBound])
    let expectedURL = Self.directory.appendingPathComponent(inputName.replacingOccurrences(of: ".in.", with: ".out."))
    let argsURL = Self.directory.appendingPathComponent("\(base).args")
    var arguments = ((try? String(contentsOf: argsURL, encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    let configURL = Self.directory.appendingPathComponent("\(base).config.json")
    if FileManager.default.fileExists(atPath: configURL.path) { arguments += ["--config", configURL.path] }
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: stateDirectory) }
    let environment = [
      "AUTH_SIDECAR_TEST_MODE": "1", "AUTH_SIDECAR_STATE_DIR": stateDirectory.path + "/state",
      "AUTH_SIDECAR_CONFIG": "", "XDG_CONFIG_HOME": stateDirectory.path + "/config",
    ]
    let output =
      base.hasPrefix("session-")
      ? try SidecarProcess.runLockstep(arguments, input: input, environment: environment)
      : try SidecarProcess.run(arguments, input: input, environment: environment)
    #expect(output.status == 0, "exit status")

    let record = ProcessInfo.processInfo.environment["RECORD_TRANSCRIPTS"] == "1"
    guard let expected = try? Data(contentsOf: expectedURL), !record else {
      try output.stdout.write(to: expectedURL)
      Issue.record("recorded \(expectedURL.lastPathComponent); check it and run again")
      return
    }
    if output.stdout != expected {
      let actualLines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let expectedLines = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      for (i, pair) in zip(actualLines, expectedLines).enumerated() where pair.0 != pair.1 {
        Issue.record("\(inputName) line \(i + 1) differs:\n  got      \(pair.0)\n  expected \(pair.1)")
        return
      }
      Issue.record("\(inputName): \(actualLines.count) lines, expected \(expectedLines.count)")
    }
  }
}
