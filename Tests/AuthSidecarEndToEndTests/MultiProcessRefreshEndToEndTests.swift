import Foundation
import Testing

extension StorageBarSuites {
  /// Eight processes refreshing one profile at once make one network refresh per expiry and lose nothing (with
  /// rotating refresh tokens a second refresh would spend a token already spent, and the server would end the
  /// session), through eight real sidecars sharing one state dir and one profile.
  ///
  /// Every sidecar runs on the same fixed test clock, so the expiry storm below is deterministic. No
  /// `--test-seed`: eight processes with one seed would mint identical tokens.
  @Suite(.serialized) struct MultiProcessRefreshEndToEndTests {
    static let processes = 8
    static let forcedRounds = 50
    static let expiryRounds = 20
    static let clock = ["--test-clock", "2027-01-01T00:00:00Z"]
    static var credentials: [String: Any] { ["username": "storm_user", "password": "Storm-test-password-42"] }

    /// One account, logged in once (by a `call`, on the same test clock), and eight long-lived sidecars that
    /// have each opened the store.
    static func fleet(_ fixture: StateFixture) throws -> [LiveSidecar] {
      let options = StateFixture.cheapKDF + clock
      let registered = try SidecarCommand.call("register", credentials, fixture: fixture, options: options)
      try #require(registered.status == 0, "register: \(registered.stdout)")
      let login = try SidecarCommand.call("login", credentials, fixture: fixture, options: options)
      try #require(login.status == 0, "login: \(login.stdout)")
      let fleet = try (0..<processes).map { _ in
        try LiveSidecar(
          ["--log-level", "error"] + options, environment: fixture.environment,
          workingDirectory: fixture.workingDirectory)
      }
      for (index, sidecar) in fleet.enumerated() {
        sidecar.send(RPCLine.line(1, "status"))
        let status = sidecar.readAnswer()
        try #require(status?.result != nil, "process \(index) status: \(status ?? [:])")
      }
      return fleet
    }

    /// Writes `line` to every sidecar back to back, then reads every answer (notifications collected).
    static func storm(_ fleet: [LiveSidecar], _ line: String, notifications: inout [[String: Any]]) -> [[String: Any]?]
    {
      let bytes = Data((line + "\n").utf8)
      for sidecar in fleet { sidecar.write(bytes) }
      return fleet.map { $0.readAnswer(timeout: 30, notifications: &notifications) }
    }

    static func stateChanges(_ notifications: [[String: Any]], _ state: String) -> Int {
      notifications.filter { $0.sessionState == state }.count
    }

    @Test func forcedRefreshStormsLoseNothing() throws {
      let fixture = try StateFixture("storm-forced")
      defer { fixture.remove() }
      let fleet = try Self.fleet(fixture)
      var distinctPerRound: [Int] = []
      var notifications: [[String: Any]] = []
      var issued = Set<String>()
      for round in 0..<Self.forcedRounds {
        let answers = Self.storm(
          fleet, RPCLine.line(100 + round, "refreshToken", ["force": true]), notifications: &notifications)
        var tokens = Set<String>()
        for (index, answer) in answers.enumerated() {
          #expect(answer?["id"] as? Int == 100 + round)
          guard let token = answer?.accessToken else {
            Issue.record("round \(round), process \(index): \(answer.map { "\($0)" } ?? "no answer")")
            continue
          }
          tokens.insert(token)
        }
        // A token handed out in an earlier round must never come back: each round forces at least one refresh.
        #expect(issued.isDisjoint(with: tokens), "round \(round) answered a token of an earlier round")
        issued.formUnion(tokens)
        distinctPerRound.append(tokens.count)
      }
      #expect(Self.stateChanges(notifications, "expired") == 0, "a process saw its session expire")
      #expect(Self.stateChanges(notifications, "refreshed") == distinctPerRound.reduce(0, +))

      // No process is left holding a dead session: each reads the user, then refreshes once more, in turn, so
      // every refresh spends the refresh token the previous one stored.
      for (index, sidecar) in fleet.enumerated() {
        sidecar.send(RPCLine.line(900, "getUser"))
        let user = sidecar.readAnswer()
        #expect(
          (user?.result?["user"] as? [String: Any])?["username"] as? String == "storm_user",
          "process \(index): \(user ?? [:])")
        sidecar.send(RPCLine.line(901, "refreshToken", ["force": true]))
        let refreshed = sidecar.readAnswer()
        #expect(refreshed?.accessToken != nil, "process \(index) final refresh: \(refreshed ?? [:])")
      }
      for sidecar in fleet { #expect(sidecar.finish() == 0) }
      let after = try SidecarCommand.call(
        "refreshToken", ["force": true], fixture: fixture, options: StateFixture.cheapKDF + Self.clock)
      #expect(after.status == 0, "a fresh process after the storms: \(after.stdout)")
      #expect(StoreInspector.integrityCheck(fixture.databasePath) == "ok")

      let histogram = Dictionary(grouping: distinctPerRound, by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key }
      print(
        "MultiProcessRefreshEndToEndTests: \(Self.forcedRounds) forced rounds × \(Self.processes) processes, "
          + "distinct access tokens per round: \(distinctPerRound.map(String.init).joined(separator: " ")); "
          + "histogram \(histogram.map { "\($0.key)→\($0.value)" }.joined(separator: ", ")); "
          + "mean \(Double(distinctPerRound.reduce(0, +)) / Double(max(1, distinctPerRound.count)))")
    }

    /// The bar itself: the access token expires in all eight at once (each sidecar's test clock moves past
    /// `expiresAt`), all eight ask at once, exactly one refresh happens and all eight get its token.
    @Test func expiryStormsMakeOneRefreshEach() throws {
      let fixture = try StateFixture("storm-expiry")
      defer { fixture.remove() }
      let fleet = try Self.fleet(fixture)
      var previous: String?
      var refreshesPerRound: [Int] = []
      for round in 0..<Self.expiryRounds {
        var notifications: [[String: Any]] = []
        // 900 s: the local provider's access-token lifetime.
        let advanced = Self.storm(
          fleet, RPCLine.line(200 + round, "test.advanceClock", ["seconds": 900]), notifications: &notifications)
        #expect(advanced.allSatisfy { $0?.result != nil }, "advanceClock: \(advanced)")
        // Alternate the explicit refresh and getUser's transparent one.
        let method = round.isMultiple(of: 2) ? "refreshToken" : "getUser"
        let answers = Self.storm(fleet, RPCLine.line(300 + round, method), notifications: &notifications)
        let tokens = Set(answers.compactMap { $0?.accessToken })
        #expect(answers.allSatisfy { $0?.accessToken != nil }, "round \(round) \(method): \(answers)")
        #expect(tokens.count == 1, "round \(round): \(tokens.count) distinct tokens")
        #expect(tokens.first != previous, "round \(round): the expired token was served again")
        previous = tokens.first
        let refreshes = Self.stateChanges(notifications, "refreshed")
        #expect(refreshes == 1, "round \(round): \(refreshes) refreshes for one expiry")
        #expect(Self.stateChanges(notifications, "expired") == 0)
        refreshesPerRound.append(refreshes)
      }
      for sidecar in fleet { #expect(sidecar.finish() == 0) }
      #expect(StoreInspector.integrityCheck(fixture.databasePath) == "ok")
      print(
        "MultiProcessRefreshEndToEndTests: \(Self.expiryRounds) expiry rounds × \(Self.processes) processes, "
          + "refreshes per expiry: \(refreshesPerRound.map(String.init).joined(separator: " "))")
    }
  }
}
