import Foundation
import Testing

/// One real auth server (Tests/Servers), a state dir and a config file naming it, for one provider test; the
/// provider suites subclass it with their own config. The server is the test's own, or one a suite shares.
class ServerHarness {
  /// The fixed clock of a sidecar whose test moves time with `test.advanceClock` (the fixture is in test mode).
  static let testClock = ["--test-clock", "2027-01-01T00:00:00Z"]

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
  private var copies: [StateFixture] = []
  /// The fixture's name, which copies of its state dir extend.
  private let name: String

  /// A server of the test's own, with `accessTokenSeconds`.
  /// - Parameter config: the config file's text for the server at the given base URL.
  init(_ name: String, accessTokenSeconds: Int = 300, checksExitStatus: Bool = false, config: (String) -> String)
    throws
  {
    server = try AuthServerProcess(accessTokenSeconds: accessTokenSeconds)
    ownsServer = true
    self.checksExitStatus = checksExitStatus
    self.name = name
    (fixture, configPath) = try ServerHarness.stateWithConfig(name, config(server.url))
  }

  /// A server the suite shares; the test leaves it running.
  init(_ name: String, sharedServer: AuthServerProcess, checksExitStatus: Bool = false, config: (String) -> String)
    throws
  {
    server = sharedServer
    ownsServer = false
    self.checksExitStatus = checksExitStatus
    self.name = name
    (fixture, configPath) = try ServerHarness.stateWithConfig(name, config(sharedServer.url))
  }

  private static func stateWithConfig(_ name: String, _ config: String) throws -> (StateFixture, String) {
    let fixture = try StateFixture(name)
    let configPath = fixture.root + "/config.json"
    try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
    return (fixture, configPath)
  }

  /// A sidecar on this harness's state dir (or `state`'s), its log captured at `logLevel`, with more `arguments`.
  func sidecar(state: StateFixture? = nil, logLevel: String = "debug", arguments: [String] = []) throws
    -> ProviderSidecar
  {
    let sidecar = try ProviderSidecar(
      config: configPath, fixture: state ?? fixture, logLevel: logLevel, checksExitStatus: checksExitStatus,
      arguments: arguments)
    sidecars.append(sidecar)
    return sidecar
  }

  /// Logs `credentials` in on each of `profiles` with a sidecar that then exits, and copies the state dir (store
  /// and key) before anything is spent. Refresh tokens and cookies never leave the sidecar, so this is how a test
  /// makes the server see one that is no longer valid: a sidecar on the copy holds the very same one, as a
  /// restored backup or a cloned home directory would. The copy goes with the harness.
  func loginAndCopyState(
    _ credentials: [String: Any], profiles: [String] = ["default"], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> StateFixture {
    let first = try sidecar()
    for profile in profiles {
      let login = first.call("login", credentials.merging(["profile": profile]) { $1 })
      #expect(login.result != nil, "\(profile): \(login)", sourceLocation: sourceLocation)
    }
    _ = first.finish()
    let copy = try copyOfState(name + "-copy")
    copies.append(copy)
    return copy
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

  /// Also kills the sidecars a failed test left running, before their state dirs go.
  func stop() {
    for sidecar in sidecars { sidecar.kill() }
    stopServer()
    fixture.remove()
    for copy in copies { copy.remove() }
  }

  /// Sleeps until the session `login` answered has run out (its `expiresAt`, and a little more), so the next call
  /// that needs it must refresh.
  static func sleepPastExpiry(of login: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let session = login.result?["session"] as? [String: Any]
    let expiresAt = try #require(unixTime(session?["expiresAt"]), "login: \(login)", sourceLocation: sourceLocation)
    Thread.sleep(forTimeInterval: max(0, expiresAt - Date().timeIntervalSince1970) + 0.2)
  }

  func counters() throws -> ServerCounters {
    let answer = try LoopbackHTTP.get(server.url + "/_test/counters")
    guard answer.status == 200, let object = answer.json else { throw FixtureError("counters: HTTP \(answer.status)") }
    return ServerCounters(raw: object)
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
