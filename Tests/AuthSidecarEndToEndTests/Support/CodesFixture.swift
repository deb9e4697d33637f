import Foundation

/// A state directory with a `local` profile whose codes go to `Tests/Delivery/record_delivery.py`, which records
/// every message it gets (and its own /proc cmdline and environ) in `deliveries.jsonl`; and an account
/// `alice` with an email and a phone.
struct CodesFixture {
  static let password = "correct horse battery staple"
  static let phone = "+8613812345678"
  static let email = "alice@example.com"

  let state: StateFixture
  var configPath: String { state.root + "/config.json" }
  var deliveriesPath: String { state.root + "/deliveries.jsonl" }
  /// Test mode with a fixed clock shared by every process of a test, and cheap password hashing.
  static let options = ["--test-clock", "2027-01-01T00:00:00Z"] + StateFixture.cheapKDF

  init(_ name: String, codes: String = #"{"requireAfterFailures": 3}"#, delivery: Bool = true) throws {
    state = try StateFixture(name)
    let script = SidecarProcess.repositoryRoot.appendingPathComponent("Tests/Delivery/record_delivery.py").path
    let command = [Self.python, script, deliveriesPath].map { "\"\($0)\"" }.joined(separator: ", ")
    let local = delivery ? #", "local": {"codeDelivery": {"command": [\#(command)]}}"# : ""
    let config = #"{"profiles": {"default": {"provider": "local", "codes": \#(codes)\#(local)}}}"#
    try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
    let add = try LiveSidecar(
      ["--config", configPath, "users", "add", "alice", "--email", Self.email, "--phone", "13812345678"]
        + StateFixture.cheapKDF, environment: state.environment, workingDirectory: state.workingDirectory)
    add.write(Data((Self.password + "\n").utf8))
    add.closeInput()
    _ = add.readToEnd()
    guard add.finish() == 0 else { throw FixtureError("users add failed") }
  }

  func remove() { state.remove() }

  /// A sidecar on this fixture's config and store.
  func start(_ extra: [String] = [], captureStderr: Bool = false) throws -> LiveSidecar {
    try LiveSidecar(
      ["--config", configPath] + Self.options + extra, environment: state.environment,
      workingDirectory: state.workingDirectory, captureStderr: captureStderr)
  }

  /// What the delivery command recorded, oldest first.
  var deliveries: [[String: Any]] {
    let text = (try? String(contentsOfFile: deliveriesPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { SidecarProcess.json(String($0)) }
  }

  /// The code of the last delivery.
  var lastCode: String? { (deliveries.last?["message"] as? [String: Any])?["code"] as? String }

  /// An absolute python3 (the config wants an absolute program).
  static let python: String = {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
      let path = "\(directory)/python3"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return "/usr/bin/python3"
  }()
}

extension LiveSidecar {
  /// Sends one request and waits for its answer (notifications on the way are skipped).
  func call(_ id: Int, _ method: String, _ params: [String: Any] = [:]) -> [String: Any] {
    _ = send(RPCLine.line(id, method, params))
    while let answer = readAnswer(timeout: 60) {
      if answer["id"] as? Int == id { return answer }
    }
    return [:]
  }
}
