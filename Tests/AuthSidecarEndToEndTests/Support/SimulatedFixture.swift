import Foundation

/// A sidecar on one `simulated` profile (`timeoutSeconds` 7, so a `slow@…` login shows which timeout it used), in
/// test mode with its clock at 2027-01-01T00:00:00Z, in a fixture of its own.
final class SimulatedFixture {
  static let start = "2027-01-01T00:00:00Z"
  static let config = #"{"profiles": {"default": {"provider": "simulated", "simulated": {"timeoutSeconds": 7}}}}"#

  let fixture: StateFixture
  let sidecar: ProviderSidecar

  /// - Parameter testMode: false starts the sidecar without any test option (real clock, random tokens).
  init(_ name: String, testMode: Bool = true) throws {
    fixture = try StateFixture("simulated-\(name)")
    let path = fixture.root + "/config.json"
    try Data(Self.config.utf8).write(to: URL(fileURLWithPath: path))
    sidecar = try ProviderSidecar(
      config: path, fixture: fixture, logLevel: "info", checksExitStatus: true,
      arguments: testMode ? ["--test-clock", Self.start] : [])
  }

  func login(_ account: String, _ password: String = "correct") -> [String: Any] {
    sidecar.call("login", ["account": account, "password": password])
  }

  /// The test clock now, read without moving it.
  var now: String? { sidecar.call("test.advanceClock", ["seconds": 0]).result?["now"] as? String }

  /// The `state`s of the `sessionChanged` notifications so far.
  var sessionStates: [String] {
    sidecar.notifications.filter { $0["method"] as? String == "sessionChanged" }
      .compactMap { ($0["params"] as? [String: Any])?["state"] as? String }
  }

  /// Ends the sidecar (exit status 0 expected) and removes the fixture; returns stderr.
  @discardableResult
  func finish() -> String {
    defer { fixture.remove() }
    return sidecar.finish()
  }

  /// After a failed expectation that threw: nothing left running or on disk.
  func cleanUp() {
    sidecar.kill()
    fixture.remove()
  }
}
