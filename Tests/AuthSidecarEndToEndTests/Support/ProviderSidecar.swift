import Foundation
import Testing

/// A long-lived sidecar on a provider suite's config, spoken to message by message: a request goes out without
/// waiting, and answers and notifications are read as they come. So one type serves both the lockstep `call`s of
/// most tests and an interactive login, whose answer follows its `loginPrompt` and may be cancelled meanwhile.
final class ProviderSidecar {
  let live: LiveSidecar
  private let checksExitStatus: Bool
  private var nextID = 1
  private var answers: [Int: [String: Any]] = [:]
  private(set) var notifications: [[String: Any]] = []
  /// Every stdout line, for the secret checks.
  private(set) var transcript = ""
  private var finished = false

  /// - Parameters:
  ///   - checksExitStatus: `finish()` expects exit status 0 (see `ServerHarness.checksExitStatus`).
  ///   - arguments: more options, e.g. `--test-clock` (the fixture's environment is in test mode).
  init(config: String, fixture: StateFixture, logLevel: String, checksExitStatus: Bool, arguments: [String] = [])
    throws
  {
    live = try LiveSidecar(
      ["--config", config, "--log-level", logLevel] + arguments, environment: fixture.environment,
      workingDirectory: fixture.workingDirectory, captureStderr: true)
    self.checksExitStatus = checksExitStatus
  }

  /// Sends one request without waiting; returns its id.
  @discardableResult
  func send(_ method: String, _ params: [String: Any] = [:]) -> Int {
    let id = nextID
    nextID += 1
    live.send(RPCLine.line(id, method, params))
    return id
  }

  /// Sends one request and waits for its answer (notifications on the way are kept).
  func call(_ method: String, _ params: [String: Any] = [:]) -> [String: Any] { answer(for: send(method, params)) }

  func cancel(_ id: Int) {
    live.send(RPCLine.json(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": id]]))
  }

  /// The `loginPrompt` of request `id`; nil if its answer (or nothing) came instead.
  func prompt(for id: Int) -> [String: Any]? {
    while true {
      if let found = notifications.first(where: { Self.isPrompt($0, id) }) { return found["params"] as? [String: Any] }
      if answers[id] != nil || !readOne() { return nil }
    }
  }

  /// The answer to request `id`, or `["noAnswer": true]` once stdout ends or stays silent past the hang guard.
  func answer(for id: Int) -> [String: Any] {
    while answers[id] == nil { if !readOne() { return ["noAnswer": true] } }
    return answers[id]!
  }

  /// Reads one stdout message (hang guard: 60 s of silence ends the test's wait).
  private func readOne() -> Bool {
    guard let line = live.readLine(timeout: 60) else { return false }
    transcript += line + "\n"
    let message = SidecarProcess.json(line)
    if let id = message["id"] as? Int { answers[id] = message } else { notifications.append(message) }
    return true
  }

  private static func isPrompt(_ message: [String: Any], _ id: Int) -> Bool {
    message["method"] as? String == "loginPrompt" && (message["params"] as? [String: Any])?["id"] as? Int == id
  }

  func closeInput() { live.closeInput() }

  /// Closes stdin, reads stdout to its end, waits for the exit and returns stderr.
  func finish() -> String {
    finished = true
    live.closeInput()
    while readOne() {}
    let status = live.finish()
    if checksExitStatus { #expect(status == 0) }
    return live.stderrText()
  }

  /// After a failed test: no sidecar is left behind.
  func kill() { if !finished { live.kill9() } }
}
