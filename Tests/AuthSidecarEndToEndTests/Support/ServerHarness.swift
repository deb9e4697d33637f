import Foundation

/// One real auth server (Tests/Servers), a state dir and a config file naming it, for one provider test; the
/// provider suites subclass it with their own config. The server is the test's own, or one a suite shares.
class ServerHarness {
  let server: AuthServerProcess
  let fixture: StateFixture
  let configPath: String
  /// Whether `finish()` holds this harness's sidecars to exit status 0 once their stdin closes: the OAuth2
  /// suites always asked that, the REST and form suites never did.
  let checksExitStatus: Bool
  /// A shared server outlives the test: `stop` leaves it running.
  private let ownsServer: Bool
  private var serverStopped = false
  private var sidecars: [ProviderSidecar] = []

  /// A server of the test's own, with `accessTokenSeconds`.
  /// - Parameter config: the config file's text for the server at the given base URL.
  init(_ name: String, accessTokenSeconds: Int = 300, checksExitStatus: Bool = false, config: (String) -> String)
    throws
  {
    server = try AuthServerProcess(accessTokenSeconds: accessTokenSeconds)
    ownsServer = true
    self.checksExitStatus = checksExitStatus
    (fixture, configPath) = try ServerHarness.stateWithConfig(name, config(server.url))
  }

  /// A server the suite shares; the test leaves it running.
  init(_ name: String, sharedServer: AuthServerProcess, checksExitStatus: Bool = false, config: (String) -> String)
    throws
  {
    server = sharedServer
    ownsServer = false
    self.checksExitStatus = checksExitStatus
    (fixture, configPath) = try ServerHarness.stateWithConfig(name, config(sharedServer.url))
  }

  private static func stateWithConfig(_ name: String, _ config: String) throws -> (StateFixture, String) {
    let fixture = try StateFixture(name)
    let configPath = fixture.root + "/config.json"
    try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
    return (fixture, configPath)
  }

  /// A sidecar on this harness's state dir (or `state`'s), its log captured at `logLevel`.
  func sidecar(state: StateFixture? = nil, logLevel: String = "debug") throws -> ProviderSidecar {
    let sidecar = try ProviderSidecar(
      config: configPath, fixture: state ?? fixture, logLevel: logLevel, checksExitStatus: checksExitStatus)
    sidecars.append(sidecar)
    return sidecar
  }

  /// A new fixture whose state dir is a copy of this one's (store, key and all); no sidecar may be running.
  func copyOfState(_ name: String) throws -> StateFixture {
    let copy = try StateFixture(name)
    let cp = Process()
    cp.executableURL = URL(fileURLWithPath: "/bin/cp")
    cp.arguments = ["-a", fixture.stateDirectory, copy.stateDirectory]
    try cp.run()
    cp.waitUntilExit()
    guard cp.terminationStatus == 0 else { throw FixtureError("cp -a of the state dir failed") }
    return copy
  }

  func stopServer() {
    guard ownsServer, !serverStopped else { return }
    serverStopped = true
    server.stop()
  }

  /// Also kills the sidecars a failed test left running, before their state dir goes.
  func stop() {
    for sidecar in sidecars { sidecar.kill() }
    stopServer()
    fixture.remove()
  }

  func counters() throws -> [String: Any] {
    let answer = try LoopbackHTTP.get(server.url + "/_test/counters")
    guard answer.status == 200, let object = answer.json else { throw FixtureError("counters: HTTP \(answer.status)") }
    return object
  }

  /// A fault at the server (see Tests/Servers/README.md); it fires on the next matching requests.
  func fault(_ fault: [String: Any]) throws {
    _ = try LoopbackHTTP.postJSON(server.url + "/_test/faults", fault)
  }

  /// Clears counters, events and faults (users and tokens stay).
  func reset() throws {
    _ = try LoopbackHTTP.postJSON(server.url + "/_test/reset", [String: Any]())
  }
}
