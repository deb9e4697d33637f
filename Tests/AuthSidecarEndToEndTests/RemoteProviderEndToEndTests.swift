import Foundation
import Testing

/// The scenarios every remote provider goes through with the same steps: a server that is down, answers 429 or
/// 500, or stalls, and a trace-level log that must hold no secret. Each runs once per provider (RemoteProvider
/// says what differs) against its real server, started for the test; the checks are the same for all.
@Suite(.serialized) struct RemoteProviderEndToEndTests {
  static let wrongPassword = "a wrong password, also secret"

  /// A network error never logs the user out: with the server gone, a getUser that must reach it answers the
  /// cached session marked stale, a refresh fails as retryable, and the session is still there afterwards.
  @Test(arguments: RemoteProvider.all) func aDownServerKeepsTheSessionAndAnswersStale(_ provider: RemoteProvider)
    throws
  {
    let harness = try provider.harness("down", .init(accessTokenSeconds: 2, refreshMarginSeconds: 0))
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let login = sidecar.call("login", provider.credentials())
    #expect(login.result != nil, "login: \(login)")
    let token = login.accessToken
    harness.stopServer()
    if provider.hasExpiringToken {
      // Past the access token's expiry: getUser must try to refresh.
      #expect(token != nil, "login: \(login)")
      try ServerHarness.sleepPastExpiry(of: login)
    }

    let fetched = sidecar.call("getUser", provider.hasExpiringToken ? [:] : ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == true, "getUser: \(fetched)")
    #expect(fetched.accessToken == token)
    #expect(fetched.user?["username"] as? String == "alice")
    let refresh = sidecar.call("refreshToken", ["force": true])
    #expect(refresh.errorKind == "network_unavailable", "refreshToken: \(refresh)")
    #expect(refresh.errorData?["retryable"] as? Bool == true)
    // Still logged in with the same session.
    let status = sidecar.call("status")
    let profile = (status.result?["profiles"] as? [[String: Any]])?.first { $0["name"] as? String == "default" }
    #expect(profile?["loggedIn"] as? Bool == true, "status: \(status)")
    let again = sidecar.call("getUser")
    #expect(again.user != nil, "getUser: \(again)")
    #expect(again.accessToken == token)
    #expect(!sidecar.notifications.contains { $0.sessionState == "expired" })

    let other = sidecar.call("login", provider.credentials(profile: provider.secondProfile))
    #expect(other.errorKind == "network_unavailable", "login: \(other)")
    _ = sidecar.finish()
  }

  /// A 429 whose Retry-After is longer than the client waits (30 s) is handed back at once, sent once.
  @Test(arguments: RemoteProvider.all) func aRetryAfterBeyondTheClientsMaximumIsHandedBack(_ provider: RemoteProvider)
    throws
  {
    let endpoint = provider.loginStart
    let harness = try provider.harness("429")
    defer { harness.stop() }
    try harness.fault([
      "path": endpoint.path, "method": endpoint.method, "mode": "status", "status": 429, "retry_after": 120,
    ])
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", provider.credentials(profile: endpoint.profile))
    #expect(answer.errorKind == "rate_limited", "login: \(answer)")
    #expect(answer.errorData?["retryAfter"] as? Int == 120)
    #expect(answer.errorData?["retryable"] as? Bool == true)
    #expect(try harness.counters().requests(endpoint.requestKey) == 1)
    // The fault fired once: the next login goes through.
    #expect(sidecar.call("login", provider.credentials(profile: endpoint.profile)).result != nil)
    _ = sidecar.finish()
  }

  /// A 500 is an answer, not a transient failure: `server_error` with the status, sent once.
  @Test(arguments: RemoteProvider.all) func internalServerErrorIsServerError(_ provider: RemoteProvider) throws {
    let endpoint = provider.loginPost
    let harness = try provider.harness("500")
    defer { harness.stop() }
    try harness.fault(["path": endpoint.path, "method": endpoint.method, "mode": "status", "status": 500])
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", provider.credentials(profile: endpoint.profile))
    #expect(answer.errorKind == "server_error", "login: \(answer)")
    #expect(answer.errorData?["status"] as? Int == 500)
    #expect(try harness.counters().requests(endpoint.requestKey) == 1)
    #expect(sidecar.call("login", provider.credentials(profile: endpoint.profile)).result != nil)
    _ = sidecar.finish()
  }

  @Test(arguments: RemoteProvider.all.filter { $0.stall != nil })
  func aStallingServerTimesOutWithinTheConfiguredTime(_ provider: RemoteProvider) throws {
    let (endpoint, timeoutSeconds) = try #require(provider.stall)
    let harness = try provider.harness("stall", .init(timeoutSeconds: timeoutSeconds))
    defer { harness.stop() }
    try harness.fault(["path": endpoint.path, "method": endpoint.method, "mode": "stall", "stall_seconds": 20])
    let sidecar = try harness.sidecar()
    let started = Date()
    let answer = sidecar.call("login", provider.credentials(profile: endpoint.profile))
    let elapsed = Date().timeIntervalSince(started)
    #expect(answer.errorKind == "timeout", "login: \(answer)")
    #expect(answer.errorData?["retryable"] as? Bool == true)
    // At least the configured time; the upper bound only shows the stall (20 s) was not waited out.
    #expect(elapsed >= Double(timeoutSeconds) - 0.1 && elapsed < 15, "answered after \(elapsed) s")
    if endpoint.method == "POST" {
      // Not retried: a login POST may have been processed.
      #expect(try harness.counters().requests(endpoint.requestKey) == 1)
    }
    _ = sidecar.finish()
  }

  /// At trace level stderr shows requests and statuses, never a password, a token, a cookie value or a CSRF
  /// token: the secrets the sidecar answered and the ones it keeps in its store are all looked for.
  @Test(arguments: RemoteProvider.all) func noSecretReachesStderrAtTraceLevel(_ provider: RemoteProvider) throws {
    let harness = try provider.harness("hygiene")
    defer { harness.stop() }
    let sidecar = try harness.sidecar(logLevel: "trace")
    let profiles = ["default", provider.secondProfile]
    var answered: [String] = []
    for profile in profiles {
      let login = sidecar.call("login", provider.credentials(profile: profile))
      #expect(login.result != nil, "\(profile): \(login)")
      let fetched = sidecar.call("getUser", ["profile": profile, "refresh": true])
      #expect(fetched.result != nil, "\(profile): \(fetched)")
      answered += [login.accessToken, fetched.accessToken].compactMap { $0 }
    }
    let stored = try provider.storedSecrets(harness, profiles)
    let refused = sidecar.call("login", provider.credentials(password: Self.wrongPassword))
    #expect(refused.errorKind == "invalid_credentials", "\(refused)")
    for profile in profiles { _ = sidecar.call("logout", ["profile": profile]) }
    let stderr = sidecar.finish()
    #expect(stderr.contains(provider.loggedPath), "stderr: \(stderr)")
    #expect(stored.count >= 2, "stored secrets: \(stored.count)")
    // A JWT's signature is unique by itself: a token split or re-encoded around it is still caught.
    let signatures = answered.map { $0.split(separator: ".") }.filter { $0.count == 3 }.compactMap(\.last)
    let passwords = [try #require(provider.credentials["password"]), Self.wrongPassword]
    for secret in passwords + stored + answered + signatures.map(String.init) {
      #expect(!stderr.contains(secret), "a secret is in stderr")
    }
  }
}
