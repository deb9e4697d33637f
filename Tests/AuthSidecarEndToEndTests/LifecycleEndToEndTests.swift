import Foundation
import Testing

/// Start, stop and the command line.
@Suite struct LifecycleEndToEndTests {
  @Test func endOfInputExitsZeroAfterAnswering() throws {
    let output = try SidecarProcess.run(lines: [validateRequest(id: 1, username: "alice")])
    #expect(output.status == 0)
    #expect(output.lines.count == 1)
  }

  @Test func sigtermExitsZeroAfterAnsweringWhatWasRead() throws {
    let session = try SidecarSession()
    session.write(validateRequest(id: 1, username: "alice"))
    #expect(session.readJSON()["id"] as? Int == 1)
    kill(session.process.processIdentifier, SIGTERM)
    session.process.waitUntilExit()
    #expect(session.process.terminationReason == .exit)
    #expect(session.process.terminationStatus == 0)
  }

  @Test func closedStdoutDoesNotKillTheProcessWithSIGPIPE() throws {
    let process = Process()
    process.executableURL = SidecarProcess.binaryURL
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    try output.fileHandleForReading.close()
    for id in 0..<200 { input.fileHandleForWriting.write(Data((validateRequest(id: id, username: "x") + "\n").utf8)) }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
  }

  @Test func helpAndVersionExitZero() throws {
    let help = try SidecarProcess.run(["--help"], input: Data())
    #expect(help.status == 0)
    #expect(String(decoding: help.stdout, as: UTF8.self).contains("Usage: auth-sidecar"))
    let version = try SidecarProcess.run(["--version"], input: Data())
    #expect(version.status == 0)
    #expect(String(decoding: version.stdout, as: UTF8.self).hasPrefix("auth-sidecar "))
  }

  @Test func usageErrorsExit64WithAMessageOnStderr() throws {
    for arguments in [["--framing", "xml"], ["--bogus"], ["--max-depth", "0"], ["frobnicate"], ["call"]] {
      let output = try SidecarProcess.run(arguments, input: Data())
      #expect(output.status == 64, "\(arguments)")
      #expect(output.stdout.isEmpty)
      #expect(String(decoding: output.stderr, as: UTF8.self).contains("Usage:"))
    }
  }

  @Test func callPrintsTheResultOrTheError() throws {
    let ok = try SidecarProcess.run(["call", "validate", #"{"username":"alice"}"#], input: Data())
    #expect(ok.status == 0)
    #expect(SidecarProcess.json(ok.lines.first ?? "")["valid"] as? Bool == true)
    let fromStdin = try SidecarProcess.run(["call", "validate", "-"], input: Data(#"{"password":"hunter2"}"#.utf8))
    #expect(fromStdin.status == 0)
    let failed = try SidecarProcess.run(["call", "nope"], input: Data())
    #expect(failed.status == 2)
    #expect(SidecarProcess.json(failed.lines.first ?? "")["code"] as? Int == -32601)
    let badParams = try SidecarProcess.run(["call", "validate", "[1]"], input: Data())
    #expect(badParams.status == 64)
  }
}
