import Foundation
import Testing

/// The `rest` provider through the real binary against the real Django servers of Tests/Servers: the SimpleJWT
/// API (`/api/token/…`, rotation + blacklist, JSON bodies, expiry only in the JWT `exp`) as profile `default`,
/// and the differently shaped "any API" (`/auth/*`: `{success, data: {token, refreshToken, expiresIn, user}}`,
/// 200-with-`success: false` for a bad login, form-encoded login) as profile `anyapi`.
///
/// Each test starts its own server (≈ 0.5 s) with the lifetimes it needs and stops it at the end; faults come
/// from the server's `/_test/faults`, evidence from its `/_test/counters`.
///
/// Refresh tokens never leave the sidecar, so a test cannot replay one by hand. Where a test needs the server to
/// see a refresh token that is no longer valid (reuse, revocation at logout), it copies the whole state dir — store
/// and key — before the token is spent: a second sidecar on the copy then holds the very same refresh token, as a
/// restored backup or a cloned home directory would. The server's answer to it is the real one (SimpleJWT's
/// blacklist, the any-API's reuse detection); nothing is injected.
@Suite(.serialized) struct RESTProviderEndToEndTests {
  static let alice = ["username": "alice", "password": "correct horse battery staple"]

  // MARK: - Success

  @Test func simpleJWTLoginGetUserAndStatus() throws {
    let harness = try Harness("jwt-success")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let started = Date().timeIntervalSince1970
    let login = sidecar.call("login", Self.alice)
    let user = try #require(login.result?["user"] as? [String: Any], "login: \(login)")
    #expect(user["id"] as? String == "1")
    #expect(user["username"] as? String == "alice")
    #expect(user["email"] as? String == "alice@example.com")
    #expect(user["displayName"] as? String == "Alice")  // userFields.displayName = first_name
    let session = try #require(login.result?["session"] as? [String: Any])
    #expect(session["tokenType"] as? String == "Bearer")
    // SimpleJWT gives the lifetime only in the token's `exp`: 300 s from now.
    let expiresAt = try #require(unixTime(session["expiresAt"]))
    #expect(abs(expiresAt - (started + 300)) < 10, "expiresAt \(session["expiresAt"] ?? "-")")
    let token = try #require(login.accessToken)
    #expect(JWTClaims.of(token)?["exp"] as? Int == Int(expiresAt))

    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["username"] as? String == "alice")
    #expect(fetched.accessToken == token)

    let status = sidecar.call("status")
    let profiles = status.result?["profiles"] as? [[String: Any]] ?? []
    let profile = try #require(profiles.first { $0["name"] as? String == "default" }, "status: \(status)")
    #expect(profile["provider"] as? String == "rest")
    #expect(profile["loggedIn"] as? Bool == true)
    #expect(profile["username"] as? String == "alice")

    let counters = try harness.counters()
    #expect(counters.count("login", "simplejwt") == 1)
    // One user fetch after the login (the token answer has no user), one for getUser(refresh: true).
    #expect(counters.count("user", "simplejwt") == 2)

    // At debug level stderr shows requests and statuses, never the password or a token.
    let stderr = sidecar.finish()
    #expect(stderr.contains("/api/token/"), "stderr: \(stderr)")
    #expect(!stderr.contains(Self.alice["password"]!))
    #expect(!stderr.contains(token))
    #expect(!stderr.contains(String(token.split(separator: ".").last ?? "")))
  }

  @Test func anyAPILoginReadsTheUserAndExpiryFromTheAnswer() throws {
    let harness = try Harness("anyapi-success")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let started = Date().timeIntervalSince1970
    let login = sidecar.call("login", Self.alice.merging(["profile": "anyapi"]) { $1 })
    let user = try #require(login.result?["user"] as? [String: Any], "login: \(login)")
    #expect(user["id"] as? String == "1")
    #expect(user["username"] as? String == "alice")
    #expect(user["displayName"] as? String == "Alice Liddell")
    let session = try #require(login.result?["session"] as? [String: Any])
    #expect((session["accessToken"] as? String)?.hasPrefix("at_") == true)
    let expiresAt = try #require(unixTime(session["expiresAt"]))
    #expect(abs(expiresAt - (started + 300)) < 10)  // expiresIn: 300

    let fetched = sidecar.call("getUser", ["profile": "anyapi", "refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["email"] as? String == "alice@example.com")
    let counters = try harness.counters()
    #expect(counters.count("login", "anyapi") == 1)
    #expect(counters.count("user", "anyapi") == 1)  // the login answer carried the user
    _ = sidecar.finish()
  }

  // MARK: - Refused logins

  @Test func wrongPasswordOrInactiveAccountIsInvalidCredentialsOnBothShapes() throws {
    let harness = try Harness("refused")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for profile in ["default", "anyapi"] {
      for (username, password) in [("alice", "not the right password"), ("mallory", "correct horse battery staple")] {
        let answer = sidecar.call("login", ["profile": profile, "username": username, "password": password])
        #expect(answer.errorKind == "invalid_credentials", "\(profile) \(username): \(answer)")
        #expect(answer.errorData?["retryable"] as? Bool == false)
      }
      #expect(sidecar.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    let counters = try harness.counters()
    // SimpleJWT answered 401; the any-API 200 with success: false — the same answer for the host.
    #expect(counters.count("login_failed", "simplejwt") == 2)
    #expect(counters.count("login_failed", "anyapi") == 2)
    _ = sidecar.finish()
  }

  @Test func aNonASCIIUsernameLogsIn() throws {
    let harness = try Harness("unicode")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    // JSON body (SimpleJWT), then form-encoded (any-API).
    for profile in ["default", "anyapi"] {
      let answer = sidecar.call(
        "login", ["profile": profile, "username": "名字用户", "password": "correct horse battery staple"])
      let user = answer.result?["user"] as? [String: Any]
      #expect(user?["username"] as? String == "名字用户", "\(profile): \(answer)")
      #expect(user?["id"] as? String == "3")
    }
    _ = sidecar.finish()
  }

  // MARK: - Refresh

  @Test func anExpiredAccessTokenIsRefreshedTransparently() throws {
    let harness = try Harness("expiry", accessTokenSeconds: 2, refreshMarginSeconds: 0)
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let login = sidecar.call("login", Self.alice)
    let first = try #require(login.accessToken, "login: \(login)")
    try ServerHarness.sleepPastExpiry(of: login)
    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    let second = try #require(fetched.accessToken)
    #expect(second != first)
    #expect((fetched.result?["user"] as? [String: Any])?["username"] as? String == "alice")
    let counters = try harness.counters()
    #expect(counters.count("refresh", "simplejwt") == 1)
    #expect(counters.count("refresh_rejected", "simplejwt") == 0)
    // The user fetch after the refresh used the new token: no 401 from /api/me/.
    #expect(counters.count("user_unauthorized", "simplejwt") == 0)
    #expect(sidecar.notifications.contains { $0.sessionState == "refreshed" })
    _ = sidecar.finish()
  }

  /// A second store holding the same refresh token (a copy of the state dir) spends it after the first one
  /// rotated it: SimpleJWT has blacklisted it, the any-API sees a reused token and kills its whole family.
  @Test func aReusedRefreshTokenEndsTheSessionAndClearsIt() throws {
    let harness = try Harness("reuse")
    defer { harness.stop() }
    let copy = try harness.loginAndCopyState(Self.alice, profiles: ["default", "anyapi"])

    let original = try harness.sidecar()
    for profile in ["default", "anyapi"] {
      let refreshed = original.call("refreshToken", ["profile": profile, "force": true])
      #expect(refreshed.accessToken != nil, "\(profile): \(refreshed)")
    }
    let clone = try harness.sidecar(state: copy)
    for profile in ["default", "anyapi"] {
      let reused = clone.call("refreshToken", ["profile": profile, "force": true])
      #expect(reused.errorKind == "session_expired", "\(profile): \(reused)")
      // Already cleared locally when the error arrives.
      #expect(clone.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    #expect(clone.notifications.filter { $0.sessionState == "expired" }.count == 2)
    let counters = try harness.counters()
    #expect(counters.count("refresh_rejected", "simplejwt") == 1)
    #expect(counters.count("refresh_rejected", "anyapi") == 1)

    // The any-API revoked the family on reuse: the original's rotated token is dead too. SimpleJWT
    // blacklists only the reused token, so the original session lives on.
    #expect(original.call("refreshToken", ["profile": "anyapi", "force": true]).errorKind == "session_expired")
    #expect(original.call("refreshToken", ["profile": "default", "force": true]).accessToken != nil)
    _ = original.finish()
    _ = clone.finish()
  }

  /// After logout the refresh token no longer works at the server: a copy of the state dir made before the
  /// logout still holds it, and its refresh is refused.
  @Test func logoutRevokesAtTheServer() throws {
    let harness = try Harness("logout")
    defer { harness.stop() }
    let copy = try harness.loginAndCopyState(Self.alice, profiles: ["default", "anyapi"])

    let original = try harness.sidecar()
    for profile in ["default", "anyapi"] {
      let logout = original.call("logout", ["profile": profile])
      #expect(logout.result?["loggedOut"] as? Bool == true, "\(profile): \(logout)")
      #expect(logout.result?["revoked"] as? Bool == true, "\(profile): \(logout)")
      #expect(original.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    var counters = try harness.counters()
    #expect(counters.count("logout", "simplejwt") == 1)
    #expect(counters.count("logout", "anyapi") == 1)

    let clone = try harness.sidecar(state: copy)
    for profile in ["default", "anyapi"] {
      let refresh = clone.call("refreshToken", ["profile": profile, "force": true])
      #expect(refresh.errorKind == "session_expired", "\(profile): \(refresh)")
    }
    counters = try harness.counters()
    #expect(counters.count("refresh_rejected", "simplejwt") == 1)
    #expect(counters.count("refresh_rejected", "anyapi") == 1)
    #expect(counters.count("refresh", "simplejwt") == 0)
    #expect(counters.count("refresh", "anyapi") == 0)
    _ = original.finish()
    _ = clone.finish()
  }

  // MARK: - An overloaded server (the scenarios all remote providers share: RemoteProviderEndToEndTests)

  @Test func serviceUnavailableTwiceThenSuccessIsRetried() throws {
    let harness = try Harness("503")
    defer { harness.stop() }
    try harness.fault(["path": "/api/token/", "mode": "status", "status": 503, "count": 2])
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", Self.alice)
    #expect((answer.result?["user"] as? [String: Any])?["username"] as? String == "alice", "login: \(answer)")
    let counters = try harness.counters()
    #expect(counters.requests("POST /api/token/") == 3)
    #expect(counters["faults_fired"] as? Int == 2)
    #expect(counters.count("login", "simplejwt") == 1)
    _ = sidecar.finish()
  }

  /// A 307 keeps the method and body: following it would send the password to another origin.
  @Test func aLoginRedirectToAnotherOriginIsRefused() throws {
    let harness = try Harness("redirect")
    defer { harness.stop() }
    try harness.fault([
      "path": "/api/token/", "mode": "redirect", "status": 307, "location": "http://127.0.0.2:1/api/token/",
    ])
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", Self.alice)
    // Refused before any connection: following it would have answered network_unavailable.
    #expect(answer.errorKind == "bad_response", "login: \(answer)")
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    _ = sidecar.finish()
  }

  // MARK: - Config

  @Test func plainHTTPToAnotherHostIsAConfigError() throws {
    let fixture = try StateFixture("rest-config")
    defer { fixture.remove() }
    let path = fixture.root + "/config.json"
    let config = Harness.config(url: "http://auth.example.com", refreshMarginSeconds: 60, timeoutSeconds: 5)
    try Data(config.utf8).write(to: URL(fileURLWithPath: path))
    let live = try LiveSidecar(
      ["--config", path], environment: fixture.environment, workingDirectory: fixture.workingDirectory,
      captureStderr: true)
    let status = live.finish()
    let stderr = live.stderrText()
    #expect(status == 78)
    #expect(stderr.contains("profiles.default.rest.baseURL"), "stderr: \(stderr)")
    #expect(!stderr.contains("auth.example.com"))
  }
}

extension RESTProviderEndToEndTests {
  /// One Django server, a state dir and a config file with the two REST profiles, for one test.
  final class Harness: ServerHarness {
    init(_ name: String, accessTokenSeconds: Int = 300, refreshMarginSeconds: Int = 60, timeoutSeconds: Int = 10)
      throws
    {
      try super.init("rest-\(name)", accessTokenSeconds: accessTokenSeconds) { url in
        Self.config(url: url, refreshMarginSeconds: refreshMarginSeconds, timeoutSeconds: timeoutSeconds)
      }
    }

    /// `default`: SimpleJWT. `anyapi`: the `/auth/*` API, form-encoded login. Usernames may be any letters: the
    /// server decides what a username is.
    static func config(url: String, refreshMarginSeconds: Int, timeoutSeconds: Int) -> String {
      #"""
      {"profiles": {
        "default": {
          "provider": "rest",
          "refreshMarginSeconds": \#(refreshMarginSeconds),
          "validation": {"usernamePattern": "[\\p{L}\\p{N}_.@-]+"},
          "rest": {
            "baseURL": "\#(url)",
            "login": {"path": "/api/token/", "body": {"username": "{username}", "password": "{password}"}},
            "refresh": {"path": "/api/token/refresh/", "body": {"refresh": "{refreshToken}"}},
            "logout": {"path": "/api/token/blacklist/", "body": {"refresh": "{refreshToken}"}},
            "user": {"path": "/api/me/"},
            "response": {"accessToken": "access", "refreshToken": "refresh"},
            "userFields": {"displayName": "first_name"},
            "headers": {"X-Client": "auth-sidecar-tests"},
            "timeoutSeconds": \#(timeoutSeconds)
          }
        },
        "anyapi": {
          "provider": "rest",
          "refreshMarginSeconds": \#(refreshMarginSeconds),
          "validation": {"usernamePattern": "[\\p{L}\\p{N}_.@-]+"},
          "rest": {
            "baseURL": "\#(url)",
            "login": {"path": "/auth/login", "encoding": "form",
                      "body": {"username": "{username}", "password": "{password}"}},
            "refresh": {"path": "/auth/refresh", "body": {"refreshToken": "{refreshToken}"}},
            "logout": {"path": "/auth/logout", "body": {"refreshToken": "{refreshToken}"}, "sendAccessToken": true},
            "user": {"path": "/auth/me", "userPath": "data.user"},
            "response": {"accessToken": "data.token", "refreshToken": "data.refreshToken", "expiresIn": "data.expiresIn",
                         "tokenType": "data.tokenType", "user": "data.user", "success": "success"},
            "timeoutSeconds": \#(timeoutSeconds)
          }
        }
      }}
      """#
    }
  }
}
