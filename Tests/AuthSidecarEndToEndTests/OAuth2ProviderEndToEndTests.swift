import Foundation
import Testing

/// The `oauth2` provider through the real binary against the real django-oauth-toolkit server of Tests/Servers
/// (OIDC discovery, RS256 JWKS, password grant, rotation with strict reuse detection, RFC 7009 revocation,
/// userinfo). Each test starts its own server with the token lifetime it needs and stops it at the end; faults
/// come from the server's `/_test/faults`, evidence from its `/_test/counters`.
///
/// Refresh tokens never leave the sidecar. Where the server must see a refresh token that is no longer valid
/// (reuse, revocation at logout), the test copies the whole state dir — store and key — before the token is
/// spent: a sidecar on the copy holds the very same refresh token, as a restored backup would, and the server's
/// answer to it is its own (nothing is injected).
@Suite(.serialized) struct OAuth2ProviderEndToEndTests {
  static let alice = ["account": "alice", "password": "correct horse battery staple"]

  // MARK: - Login

  @Test func passwordGrantLoginReturnsTheVerifiedUserAndTheGrantedScopes() throws {
    let harness = try Harness("login")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let started = Date().timeIntervalSince1970
    for profile in ["default", "confidential"] {
      let login = sidecar.call("login", Self.alice.merging(["profile": profile]) { $1 })
      let user = try #require(login.result?["user"] as? [String: Any], "\(profile) login: \(login)")
      #expect(user["id"] as? String == "1")
      #expect(user["username"] as? String == "alice")
      #expect(user["email"] as? String == "alice@example.com")
      #expect(user["displayName"] as? String == "Alice Liddell")
      let session = try #require(login.result?["session"] as? [String: Any])
      #expect(session["tokenType"] as? String == "Bearer")
      #expect(session["scopes"] as? [String] == ["openid", "profile", "email"])
      let expiresAt = try #require(unixTime(session["expiresAt"]))
      #expect(abs(expiresAt - (started + 300)) < 10, "expiresAt \(session["expiresAt"] ?? "-")")
    }
    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["username"] as? String == "alice")

    let counters = try harness.counters()
    #expect(counters.count("login", "oauth2") == 2)
    #expect(counters.count("user", "oauth2") == 1)
    // One process: discovery and the key set fetched once for both profiles (the ID tokens were verified).
    #expect(counters.requests("GET /o/.well-known/openid-configuration") == 1)
    #expect(counters.requests("GET /o/.well-known/jwks.json") == 1)
    let stderr = sidecar.finish()
    #expect(!stderr.contains(Self.alice["password"]!))
    #expect(!stderr.contains("sidecar-confidential-secret"))
    #expect(!stderr.contains(fetched.accessToken ?? "<none>"))
    for profile in ["default", "confidential"] {
      let refreshToken = try #require(
        try StoreInspector.refreshToken(stateDirectory: harness.fixture.stateDirectory, profile: profile))
      #expect(!stderr.contains(refreshToken))
    }
    #expect(stderr.contains("/o/token/"), "the debug log shows the requests: \(stderr)")
  }

  /// The ID token really is checked: a token answer whose ID token is the server's own, correctly signed, but
  /// issued to another client is refused, and so is one whose payload was altered; the same answer with an
  /// untouched ID token for this client is accepted (so the refusals are the validator's, not the injection's).
  @Test func anIDTokenForAnotherClientOrAlteredIsRefused() throws {
    let harness = try Harness("id-token")
    defer { harness.stop() }
    let mine = try harness.directTokens(client: "sidecar-public")
    let theirs = try harness.directTokens(client: "sidecar-confidential", secret: "sidecar-confidential-secret")
    let mineID = try #require(mine["id_token"] as? String)
    #expect(theirs["id_token"] is String)
    let altered = try Self.alteredPayload(mineID) { $0["sub"] = "2" }

    let cases: [(String, [String: Any], String?)] = [
      ("another client's", theirs, "ID token aud does not contain the client"),
      ("altered", mine.merging(["id_token": altered]) { $1 }, "ID token signature does not verify"),
      ("untouched", mine, nil),
    ]
    for (name, answer, reason) in cases {
      try harness.fault([
        "path": "/o/token/", "method": "POST", "status": 200, "content_type": "application/json",
        "body": String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self),
      ])
      let sidecar = try harness.sidecar(logLevel: "warning")
      let login = sidecar.call("login", Self.alice)
      let stderr = sidecar.finish()
      if let reason {
        #expect(login.errorKind == "bad_response", "\(name): \(login)")
        #expect(stderr.contains(reason), "\(name): \(stderr)")
      } else {
        #expect(login.result?["user"] != nil, "\(name): \(login) \(stderr)")
      }
    }
  }

  @Test func aWrongPasswordIsInvalidCredentials() throws {
    let harness = try Harness("wrong-password")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for profile in ["default", "confidential"] {
      let answer = sidecar.call(
        "login", ["profile": profile, "account": "alice", "password": "not the right password"])
      #expect(answer.errorKind == "invalid_credentials", "\(profile): \(answer)")
      #expect(answer.errorData?["provider"] as? String == "invalid_grant")
      #expect(answer.errorData?["retryable"] as? Bool == false)
    }
    // An inactive account gets the very same answer (no account enumeration).
    let inactive = sidecar.call("login", ["account": "mallory", "password": "correct horse battery staple"])
    #expect(inactive.errorKind == "invalid_credentials")
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    #expect(try harness.counters().count("login_failed", "oauth2") == 3)
    _ = sidecar.finish()
  }

  @Test func aProfileWithoutThePasswordGrantOptInIsUnsupported() throws {
    let harness = try Harness("no-password-grant")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", Self.alice.merging(["profile": "noPasswordGrant"]) { $1 })
    #expect(answer.errorKind == "unsupported", "\(answer)")
    let counters = try harness.counters()
    #expect(counters.requests("POST /o/token/") == 0, "the password never left: \(counters["requests"] ?? "")")
    _ = sidecar.finish()
  }

  // MARK: - Refresh

  @Test func anExpiredAccessTokenIsRefreshedTransparentlyByGetUser() throws {
    let harness = try Harness("expiry", accessTokenSeconds: 2, refreshMarginSeconds: 0)
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let login = sidecar.call("login", Self.alice)
    let first = try #require(login.accessToken, "login: \(login)")
    try ServerHarness.sleepPastExpiry(of: login)

    let answer = sidecar.call("getUser")
    #expect(answer.result?["stale"] as? Bool == false, "getUser: \(answer)")
    let second = try #require(answer.accessToken)
    #expect(second != first)
    #expect(sidecar.notifications.contains { $0.sessionState == "refreshed" })
    // The new token works at the server.
    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.accessToken == second, "getUser refresh: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["id"] as? String == "1")
    let counters = try harness.counters()
    #expect(counters.count("refresh", "oauth2") == 1)
    #expect(counters.count("user_unauthorized", "oauth2") == 0)
    #expect(counters["invalid_grant"] as? Int == 0)
    _ = sidecar.finish()
  }

  /// Two copies of one session: the first to refresh rotates the token; the second presents the rotated one,
  /// the server detects the reuse (invalid_grant, and the whole token family revoked), the sidecar answers
  /// `session_expired` and clears its local session.
  @Test func aReusedRefreshTokenEndsTheSession() throws {
    let harness = try Harness("reuse")
    defer { harness.stop() }
    let copy = try harness.loginAndCopyState(Self.alice)

    let original = try harness.sidecar()
    let rotated = original.call("refreshToken", ["force": true])
    #expect(rotated.accessToken != nil, "first refresh: \(rotated)")

    let replay = try harness.sidecar(state: copy)
    let rejected = replay.call("refreshToken", ["force": true])
    #expect(rejected.errorKind == "session_expired", "replayed refresh: \(rejected)")
    #expect(replay.notifications.contains { $0.sessionState == "expired" })
    #expect(replay.call("getUser").errorKind == "not_logged_in")
    _ = replay.finish()
    #expect(try StoreInspector.refreshToken(stateDirectory: copy.stateDirectory) == nil)

    var counters = try harness.counters()
    #expect(counters["invalid_grant"] as? Int == 1)
    #expect(counters.count("refresh", "oauth2") == 1)
    // Strict reuse detection: the family is revoked, so the first copy's fresh tokens are dead too.
    let after = original.call("refreshToken", ["force": true])
    #expect(after.errorKind == "session_expired", "refresh after the reuse: \(after)")
    counters = try harness.counters()
    #expect(counters["invalid_grant"] as? Int == 2)
    _ = original.finish()
  }

  // MARK: - Logout

  @Test func logoutRevokesTheRefreshTokenAtTheServer() throws {
    let harness = try Harness("revoke")
    defer { harness.stop() }
    let copy = try harness.loginAndCopyState(Self.alice)

    let original = try harness.sidecar()
    let logout = original.call("logout")
    #expect(logout.result?["loggedOut"] as? Bool == true, "logout: \(logout)")
    #expect(logout.result?["revoked"] as? Bool == true)
    #expect(original.call("getUser").errorKind == "not_logged_in")
    _ = original.finish()
    #expect(try harness.counters().count("revoke", "oauth2") == 2)  // refresh token, access token

    let replay = try harness.sidecar(state: copy)
    let rejected = replay.call("refreshToken", ["force": true])
    #expect(rejected.errorKind == "session_expired", "refresh with the revoked token: \(rejected)")
    #expect(replay.call("getUser").errorKind == "not_logged_in")
    _ = replay.finish()
    #expect(try harness.counters()["invalid_grant"] as? Int == 1)
  }

  // MARK: - Server trouble

  // A down server, 429 and 500 at login, secret hygiene at trace level: RemoteProviderEndToEndTests.

  @Test func aRefreshThatMeetsServerErrorsKeepsTheSession() throws {
    let harness = try Harness("faults")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    #expect(sidecar.call("login", Self.alice).result != nil)
    // A refresh that meets 503 three times (the client's attempts): server_error, the session kept.
    try harness.fault(["path": "/o/token/", "status": 503, "count": 3])
    let refresh = sidecar.call("refreshToken", ["force": true])
    #expect(refresh.errorKind == "server_error", "503: \(refresh)")
    #expect(refresh.errorData?["status"] as? Int == 503)
    #expect(sidecar.call("getUser").result?["stale"] as? Bool == false)
    #expect(sidecar.call("refreshToken", ["force": true]).accessToken != nil)
    #expect(try harness.counters()["invalid_grant"] as? Int == 0)
    _ = sidecar.finish()
  }

  // MARK: - The bar

  /// The multi-process refresh bar with a real server: eight sidecars sharing one state dir, access tokens of
  /// 3 s refreshed 1 s before they run out, `getUser` from all eight all the time (one in ten with
  /// `refresh: true`, which takes the token to the server's userinfo). Zero failed calls, one refresh grant per
  /// expiry at the server, zero `invalid_grant`. About 35 s; `AUTH_SIDECAR_OAUTH2_BAR_SECONDS` makes it longer
  /// (120 for the note).
  @Test func eightSidecarsMakeOneRefreshPerExpiry() throws {
    let seconds = ProcessInfo.processInfo.environment["AUTH_SIDECAR_OAUTH2_BAR_SECONDS"].flatMap(Double.init) ?? 35
    try Bar.run(seconds: seconds)
  }
}

// MARK: - Support

extension OAuth2ProviderEndToEndTests {
  /// `token` with its payload changed by `change` and the original signature kept.
  static func alteredPayload(_ token: String, _ change: (inout [String: Any]) -> Void) throws -> String {
    var claims = try #require(JWTClaims.of(token))
    change(&claims)
    return try JWTClaims.replacing(claims, in: token)
  }

  /// One Django server, a state dir and a config file with the oauth2 profiles, for one test.
  final class Harness: ServerHarness {
    init(_ name: String, accessTokenSeconds: Int = 300, refreshMarginSeconds: Int = 60) throws {
      try super.init("oauth2-\(name)", accessTokenSeconds: accessTokenSeconds, checksExitStatus: true) { url in
        Self.config(issuer: url + "/o", refreshMarginSeconds: refreshMarginSeconds)
      }
    }

    /// `default`: the public client with the password grant; `confidential`: the confidential client (HTTP
    /// Basic); `noPasswordGrant`: the public client without the opt-in.
    static func config(issuer: String, refreshMarginSeconds: Int) -> String {
      #"""
      {"profiles": {
        "default": {
          "provider": "oauth2", "refreshMarginSeconds": \#(refreshMarginSeconds),
          "oauth2": {"issuer": "\#(issuer)", "clientId": "sidecar-public", "allowPasswordGrant": true,
                     "timeoutSeconds": 10}
        },
        "confidential": {
          "provider": "oauth2", "refreshMarginSeconds": \#(refreshMarginSeconds),
          "oauth2": {"issuer": "\#(issuer)", "clientId": "sidecar-confidential",
                     "clientSecret": "sidecar-confidential-secret", "allowPasswordGrant": true,
                     "scopes": ["openid", "profile", "email"]}
        },
        "noPasswordGrant": {
          "provider": "oauth2",
          "oauth2": {"issuer": "\#(issuer)", "clientId": "sidecar-public"}
        }
      }}
      """#
    }

    /// A password grant sent by the test itself (not the sidecar): the server's real answer, ID token included.
    func directTokens(client: String, secret: String? = nil) throws -> [String: Any] {
      var form = "grant_type=password&username=alice&password=correct+horse+battery+staple&scope=openid+profile+email"
      var headers: [String: String] = ["Content-Type": "application/x-www-form-urlencoded"]
      if let secret {
        headers["Authorization"] = "Basic " + Data("\(client):\(secret)".utf8).base64EncodedString()
      } else {
        form += "&client_id=\(client)"
      }
      let answer = try LoopbackHTTP.send("POST", server.url + "/o/token/", headers: headers, body: Data(form.utf8))
      guard (200..<300).contains(answer.status) else { throw FixtureError("POST /o/token/ answered \(answer.status)") }
      return try #require(answer.json)
    }
  }
}
