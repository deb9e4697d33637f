import Foundation

/// The real `auth-sidecar` binary, spawned over real pipes.
struct SidecarProcess {
  /// `AUTH_SIDECAR_BIN`, or the binary `swift build` put next to this test bundle.
  static let binaryURL: URL = {
    if let path = ProcessInfo.processInfo.environment["AUTH_SIDECAR_BIN"] { return URL(fileURLWithPath: path) }
    let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBundle.deletingLastPathComponent()
    // swift-testing may run from inside the .xctest bundle directory.
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("auth-sidecar").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("auth-sidecar")
  }()

  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Output {
    var stdout: Data
    var stderr: Data
    var status: Int32
    var lines: [String] { String(decoding: stdout, as: UTF8.self).split(separator: "\n").map(String.init) }
  }

  /// Runs the binary with `input` on stdin (then EOF) and returns everything it wrote.
  static func run(_ arguments: [String] = [], input: Data, environment: [String: String] = [:]) throws -> Output {
    let process = Process()
    process.executableURL = binaryURL
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Write and read concurrently so a large exchange cannot deadlock on full pipes.
    let writer = Thread {
      stdin.fileHandleForWriting.write(input)
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let errors = ReadAll(stderr.fileHandleForReading)
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(stdout: out, stderr: errors.wait(), status: process.terminationStatus)
  }

  /// Sends one line at a time and waits for the answer to each request (the line with its id)
  /// before sending the next; notifications are collected in order. Lines without an id
  /// (notifications, garbage) are sent without waiting.
  static func runLockstep(_ arguments: [String], input: Data, environment: [String: String]) throws -> Output {
    let session = try SidecarSession(arguments, environment: environment)
    var stdout = Data()
    for line in String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    where !line.isEmpty {
      session.write(String(line))
      guard let id = (json(String(line))["id"]).map({ "\($0)" }) else { continue }
      while let answer = session.readLine() {
        stdout.append(Data((answer + "\n").utf8))
        if let answerID = json(answer)["id"].map({ "\($0)" }), answerID == id { break }
      }
    }
    let status = session.finish()
    while let rest = session.readLine() { stdout.append(Data((rest + "\n").utf8)) }
    return Output(stdout: stdout, stderr: Data(session.stderrText().utf8), status: status)
  }

  static func run(_ arguments: [String] = [], lines: [String]) throws -> Output {
    try run(arguments, input: Data((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// Parses one output line as a JSON object.
  static func json(_ line: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
  }
}

/// Drains a pipe on a background thread.
final class ReadAll: @unchecked Sendable {
  // `data` is written once by the thread before `done` is signalled and read only after.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }.start()
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}
