import Foundation
import Testing

extension OAuth2ProviderEndToEndTests {
  /// The multi-process refresh bar against the real server: eight sidecars on one state dir under continuous
  /// `getUser` traffic while the server's access tokens expire every few seconds.
  enum Bar {
    static let processes = 8
    static let accessTokenSeconds = 3
    /// Refresh 1 s before the server's expiry, so a token read just before it is due still works at the server.
    static let refreshMarginSeconds = 1
    /// Between one answer and the next request of one sidecar: ≈ 40 calls/s each, 320/s in all.
    static let pauseMicroseconds: UInt32 = 20_000
    /// One call in this many asks for `refresh: true` (the access token goes to the server's userinfo).
    static let userinfoEvery = 10

    struct Tally {
      var calls = 0
      var userinfoCalls = 0
      var failures: [String] = []
      var stale = 0
      var tokens = Set<String>()
      /// Answers whose session had already expired when they arrived.
      var expiredServed = 0
      var refreshed = 0
      var expired = 0
    }

    static func run(seconds: Double) throws {
      let harness = try Harness(
        "bar", accessTokenSeconds: accessTokenSeconds, refreshMarginSeconds: refreshMarginSeconds)
      defer { harness.stop() }
      let first = try harness.sidecar(logLevel: "warning")
      let login = first.call("login", OAuth2ProviderEndToEndTests.alice)
      let loginToken = try #require(login.accessToken, "login: \(login)")
      _ = first.finish()
      try harness.reset()

      let fleet = try (0..<processes).map { _ in try harness.sidecar(logLevel: "warning") }
      let tally = Locked(Tally())
      tally.withLock { _ = $0.tokens.insert(loginToken) }
      let started = Date()
      let deadline = started.addingTimeInterval(seconds)
      let done = DispatchGroup()
      // Each thread speaks to its sidecar's process directly: `drive` checks every answer's id itself.
      for (index, live) in fleet.map(\.live).enumerated() {
        done.enter()
        Thread {
          drive(live, index: index, until: deadline, into: tally)
          done.leave()
        }.start()
      }
      done.wait()
      let elapsed = Date().timeIntervalSince(started)
      var warnings = 0
      // `finish` also expects exit status 0 (an OAuth2 harness checks it).
      for sidecar in fleet { warnings += sidecar.finish().split(separator: "\n").count }

      let counters = try harness.counters()
      let result = tally.withLock { $0 }
      let refreshes = counters.count("refresh", "oauth2") ?? -1
      let rejected = counters.count("refresh_rejected", "oauth2") ?? -1
      let failed = counters.count("refresh_failed", "oauth2") ?? -1
      let invalidGrant = counters["invalid_grant"] as? Int ?? -1
      let unauthorized = counters.count("user_unauthorized", "oauth2") ?? -1
      let times = (counters["events"] as? [[String: Any]] ?? [])
        .filter { $0["action"] as? String == "refresh" && $0["outcome"] as? String == "refresh" }
        .compactMap { $0["t"] as? Double }.sorted()
      let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
      // Every access token but the last one in use expired during the run and was replaced by one refresh.
      let expiries = result.tokens.count - 1

      #expect(result.failures.isEmpty, "failed calls: \(result.failures.prefix(5))")
      #expect(result.stale == 0)
      #expect(result.expiredServed == 0, "answers carrying an expired token")
      #expect(result.expired == 0, "a sidecar saw its session expire")
      #expect(invalidGrant == 0)
      #expect(rejected == 0 && failed == 0)
      #expect(refreshes == expiries, "refresh grants at the server \(refreshes), expiries \(expiries)")
      #expect(refreshes == result.refreshed, "server \(refreshes) vs sidecars' refreshed notifications")
      #expect(times.count == refreshes)
      // One grant per expiry also in time: a token lives 1–2 s before it is due, so grants never come closer.
      #expect((gaps.min() ?? 1) > 0.9, "two refresh grants \(gaps.min() ?? 0) s apart")
      #expect(Double(refreshes) >= seconds / Double(accessTokenSeconds), "too few refreshes: \(refreshes)")
      #expect(warnings == 0, "sidecars logged \(warnings) warnings")

      let gapText = gaps.isEmpty ? "-" : String(format: "%.2f–%.2f s", gaps.min()!, gaps.max()!)
      print(
        "OAuth2 bar: \(processes) sidecars, \(String(format: "%.1f", elapsed)) s, \(result.calls) getUser calls "
          + "(\(result.userinfoCalls) with refresh: true), \(result.failures.count) failed, \(result.stale) stale; "
          + "refresh grants at the server \(refreshes) for \(expiries) expiries (gaps \(gapText)), "
          + "invalid_grant \(invalidGrant), userinfo 401s retried \(unauthorized)")
    }

    /// One sidecar's traffic: getUser in a loop, every answer checked and tallied.
    static func drive(_ sidecar: LiveSidecar, index: Int, until deadline: Date, into tally: Locked<Tally>) {
      var notifications: [[String: Any]] = []
      let dates = ISO8601DateFormatter()
      var id = 0
      while Date() < deadline {
        id += 1
        let fromServer = id % userinfoEvery == 0
        sidecar.send(RPCLine.line(id, "getUser", fromServer ? ["refresh": true] : [:]))
        let answer = sidecar.readAnswer(timeout: 30, notifications: &notifications)
        let received = Date().timeIntervalSince1970
        let session = answer?.result?["session"] as? [String: Any]
        let expiresAt = (session?["expiresAt"] as? String).flatMap { dates.date(from: $0)?.timeIntervalSince1970 }
        tally.withLock { tally in
          tally.calls += 1
          if fromServer { tally.userinfoCalls += 1 }
          guard answer?["id"] as? Int == id, let token = answer?.accessToken, let expiresAt else {
            tally.failures.append("process \(index) call \(id): \(answer.map { "\($0)" } ?? "no answer")")
            return
          }
          tally.tokens.insert(token)
          if answer?.result?["stale"] as? Bool != false { tally.stale += 1 }
          if expiresAt <= received { tally.expiredServed += 1 }
        }
        usleep(pauseMicroseconds)
      }
      tally.withLock { tally in
        tally.refreshed += notifications.filter { $0.sessionState == "refreshed" }.count
        tally.expired += notifications.filter { $0.sessionState == "expired" }.count
      }
    }
  }
}
