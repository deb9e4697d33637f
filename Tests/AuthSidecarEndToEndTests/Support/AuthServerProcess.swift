import Foundation

/// The real Django auth servers of Tests/Servers (SimpleJWT REST API, django-oauth-toolkit OIDC,
/// Django's login form), started on 127.0.0.1 with a free port for one test and stopped after.
///
/// Runs `Tests/Servers/serve.py` with the project's `.venv` Python, which the test command
/// fills from the pinned Tests/Servers/requirements.txt. The server dies with its stdin, so a
/// crashed test run leaves no server behind.
final class AuthServerProcess: @unchecked Sendable {
  // Set once in init; `stop` runs on the test's own thread.
  let url: String
  private let process: Process
  private let stdin: Pipe
  let logPath: String

  struct Unavailable: Error, CustomStringConvertible {
    let description: String
  }

  static var python: URL { SidecarProcess.repositoryRoot.appendingPathComponent(".venv/bin/python") }

  /// - Parameter accessTokenSeconds: access-token lifetime for all three servers.
  init(accessTokenSeconds: Int = 300, extraArguments: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
      throw Unavailable(description: "no .venv/bin/python: run scripts/test, which installs the servers")
    }
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("authserver-\(UUID().uuidString).log")
    logPath = log.path
    process = Process()
    process.executableURL = Self.python
    process.arguments =
      [
        SidecarProcess.repositoryRoot.appendingPathComponent("Tests/Servers/serve.py").path,
        "--access-token-seconds", String(accessTokenSeconds), "--exit-with-stdin", "--log-file", log.path,
      ] + extraArguments
    stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    let deadline = Date().addingTimeInterval(60)
    while !line.contains(0x0A), Date() < deadline {
      let chunk = stdout.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.hasPrefix("READY http://127.0.0.1:") else {
      process.terminate()
      throw Unavailable(description: "auth server did not start: \(text)")
    }
    url = String(text.dropFirst("READY ".count))
    // The server has its log open by now and keeps writing to it; nothing here reads it, and a server shared by
    // a whole suite is never stopped (it exits with the test process, on stdin's end), so the name goes now
    // rather than leaving a file in /tmp per run.
    try? FileManager.default.removeItem(atPath: logPath)
  }

  func stop() {
    try? stdin.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    // It stops within a second; a server that cannot (its signals blocked) must not hang the test run.
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  deinit { if process.isRunning { process.terminate() } }
}
