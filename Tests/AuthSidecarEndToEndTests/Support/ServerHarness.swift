import Foundation

/// One real auth server (Tests/Servers), a state dir and a config file naming it, for one provider test; the
/// provider suites subclass it with their own config.
class ServerHarness {
  let server: AuthServerProcess
  let fixture: StateFixture
  let configPath: String
  private var serverStopped = false

  /// - Parameter config: the config file's text for the server at the given base URL.
  init(_ name: String, accessTokenSeconds: Int = 300, config: (String) -> String) throws {
    server = try AuthServerProcess(accessTokenSeconds: accessTokenSeconds)
    fixture = try StateFixture(name)
    configPath = fixture.root + "/config.json"
    try Data(config(server.url).utf8).write(to: URL(fileURLWithPath: configPath))
  }

  /// A sidecar on this harness's state dir (or `state`'s), its log captured at `logLevel`.
  func sidecar(state: StateFixture? = nil, logLevel: String = "debug") throws -> RESTProviderEndToEndTests.Sidecar {
    try RESTProviderEndToEndTests.Sidecar(config: configPath, fixture: state ?? fixture, logLevel: logLevel)
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
    guard !serverStopped else { return }
    serverStopped = true
    server.stop()
  }

  func stop() {
    stopServer()
    fixture.remove()
  }

  func counters() throws -> [String: Any] {
    let (status, data) = try RESTProviderEndToEndTests.ControlHTTP.send("GET", server.url + "/_test/counters")
    guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw FixtureError("counters: HTTP \(status)")
    }
    return object
  }

  func fault(_ fault: [String: Any]) throws {
    let (status, _) = try RESTProviderEndToEndTests.ControlHTTP.send("POST", server.url + "/_test/faults", json: fault)
    guard (200..<300).contains(status) else { throw FixtureError("installing a fault: HTTP \(status)") }
  }
}
