import Foundation
import Testing

/// `login {flow: "device" | "authorizationCode"}` through the real binary against the real django-oauth-toolkit
/// server of Tests/Servers. The test plays the user: it approves or denies the device code at the server's
/// `/_test/device/approve`, or acts as the browser, following the server's 302 to the sidecar's loopback
/// listener by hand. Only loopback addresses; no timings are asserted (the waits are hang guards).
///
/// One server serves the whole suite (it dies with the test process, `--exit-with-stdin`); every test has its
/// own state dir and sidecar. The server's device `interval` is 1 s.
@Suite(.serialized) struct OAuth2InteractiveEndToEndTests {
  static let shared = Result { try AuthServerProcess() }

  // MARK: - Device flow

  @Test func deviceLoginAnswersOnceTheUserApprovesAndTheSessionWorks() throws {
    let run = try Run("device")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "device"])
    let prompt = try #require(run.sidecar.prompt(for: id), "no loginPrompt")
    #expect(prompt["profile"] as? String == "default")
    #expect(prompt["flow"] as? String == "device")
    #expect(prompt["id"] as? Int == id)
    #expect((prompt["verificationUri"] as? String)?.hasPrefix(run.server.url + "/o/device") == true, "\(prompt)")
    #expect(OAuth2ProviderEndToEndTests.unixTime(prompt["expiresAt"]) != nil)
    let userCode = try #require(prompt["userCode"] as? String)

    try run.approve(userCode, as: "alice", "accept")
    let login = run.sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "alice", "login: \(login)")
    #expect(run.sidecar.notifications.contains { OAuth2ProviderEndToEndTests.state($0) == "loggedIn" })

    let fetched = run.sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["id"] as? String == "1")
    let refreshed = run.sidecar.call("refreshToken", ["force": true])
    #expect(refreshed.accessToken != nil && refreshed.accessToken != login.accessToken, "refresh: \(refreshed)")
    let stderr = run.sidecar.finish()
    #expect(!stderr.contains(refreshed.accessToken ?? "<none>"))
    #expect(!stderr.contains("device_code="), "the device code stays out of the log")
  }

  @Test func aDeniedDeviceCodeIsInvalidCredentialsFromAccessDenied() throws {
    let run = try Run("device-deny")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "device", "locale": "zh-Hans"])
    let userCode = try #require(run.sidecar.prompt(for: id)?["userCode"] as? String)
    try run.approve(userCode, as: "alice", "deny")
    let login = run.sidecar.answer(for: id)
    #expect(login.errorKind == "invalid_credentials", "\(login)")
    #expect(OAuth2ProviderEndToEndTests.errorData(login)?["provider"] as? String == "access_denied")
    #expect((login["error"] as? [String: Any])?["message"] as? String == "登录未获批准。")
    #expect(run.sidecar.call("getUser").errorKind == "not_logged_in")
    _ = run.sidecar.finish()
  }

  @Test func aCancelledDeviceLoginAnswersCancelledAndStoresNothing() throws {
    let run = try Run("device-cancel")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "device"])
    let userCode = try #require(run.sidecar.prompt(for: id)?["userCode"] as? String)
    // Meanwhile the profile is not blocked: reads are answered at once.
    #expect(run.sidecar.call("getUser").errorKind == "not_logged_in")
    run.sidecar.cancel(id)
    let login = run.sidecar.answer(for: id)
    #expect(login.errorKind == "cancelled", "\(login)")
    // Approving now changes nothing: the sidecar stopped polling.
    try run.approve(userCode, as: "alice", "accept")
    #expect(run.sidecar.call("getUser").errorKind == "not_logged_in")
    #expect(!run.sidecar.notifications.contains { OAuth2ProviderEndToEndTests.state($0) == "loggedIn" })
    _ = run.sidecar.finish()
  }

  /// stdin closes while a device login waits for the user: it answers `cancelled` and the process exits 0,
  /// without waiting for the user (the drain would otherwise wait 10 s, and the test's guard is far longer).
  @Test func shutdownCancelsAPendingInteractiveLogin() throws {
    let run = try Run("device-shutdown")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "device"])
    #expect(run.sidecar.prompt(for: id) != nil)
    run.sidecar.closeInput()
    #expect(run.sidecar.answer(for: id).errorKind == "cancelled")
    _ = run.sidecar.finish()
  }

  /// Transient trouble while polling (a 502 the client does not retry, for a POST) is ridden out; the login
  /// still completes once the user approves.
  @Test func aPollThatMeetsServerTroubleKeepsPolling() throws {
    let run = try Run("device-fault")
    defer { run.stop() }
    try run.fault(["path": "/o/token/", "method": "POST", "status": 502, "count": 2])
    let id = run.sidecar.send("login", ["flow": "device"])
    let userCode = try #require(run.sidecar.prompt(for: id)?["userCode"] as? String)
    try run.approve(userCode, as: "alice", "accept")
    let login = run.sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "alice", "\(login)")
    let counters = try #require(try LoopbackHTTP.get(run.server.url + "/_test/counters").json)
    #expect(counters["faults_fired"] as? Int == 2, "both faults met a poll")
    _ = run.sidecar.finish()
  }

  /// Any refusal other than pending / slow_down ends the polling (RFC 8628 §3.5): here the server refuses
  /// the client, which no further poll can fix.
  @Test func aPollRefusedForAnotherReasonEndsTheLogin() throws {
    let run = try Run("device-refused")
    defer { run.stop() }
    try run.fault([
      "path": "/o/token/", "method": "POST", "status": 401, "content_type": "application/json",
      "body": #"{"error": "invalid_client"}"#,
    ])
    let id = run.sidecar.send("login", ["flow": "device"])
    #expect(run.sidecar.prompt(for: id) != nil)
    let login = run.sidecar.answer(for: id)
    #expect(login.errorKind == "bad_response", "\(login)")
    #expect(OAuth2ProviderEndToEndTests.errorData(login)?["provider"] as? String == "invalid_client")
    _ = run.sidecar.finish()
  }

  @Test func aNonASCIIUserLogsInWithTheDeviceFlow() throws {
    let run = try Run("device-unicode")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "device"])
    let userCode = try #require(run.sidecar.prompt(for: id)?["userCode"] as? String)
    try run.approve(userCode, as: "名字用户", "accept")
    let login = run.sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "名字用户", "\(login)")
    #expect((run.sidecar.call("getUser").result?["user"] as? [String: Any])?["id"] as? String == "3")
    _ = run.sidecar.finish()
  }

  // MARK: - Authorization code

  @Test func authorizationCodeLoginThroughTheLoopbackRedirect() throws {
    let run = try Run("code")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "authorizationCode", "profile": "native"])
    let prompt = try #require(run.sidecar.prompt(for: id), "no loginPrompt")
    let authorizationURL = try #require(prompt["authorizationUrl"] as? String)
    let redirectURI = try #require(prompt["redirectUri"] as? String)
    #expect(authorizationURL.hasPrefix(run.server.url + "/o/authorize/?"), "\(authorizationURL)")
    #expect(authorizationURL.contains("code_challenge_method=S256"))
    #expect(redirectURI.hasPrefix("http://127.0.0.1:") && redirectURI.hasSuffix("/callback"), "\(redirectURI)")

    let location = try run.browserAuthorizes(authorizationURL, as: "alice")
    #expect(location.hasPrefix(redirectURI + "?"), "302 to \(location)")
    // Stray requests to the listener are answered and do not end the wait.
    #expect(try LoopbackHTTP.get(redirectURI.replacingOccurrences(of: "/callback", with: "/favicon.ico")).status == 404)
    #expect(try LoopbackHTTP.get(redirectURI + "?code=forged&state=wrong").status == 400)
    let landing = try LoopbackHTTP.get(location)
    #expect(landing.status == 200)
    #expect(landing.header("cache-control") == "no-store")

    let login = run.sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "alice", "login: \(login)")
    let fetched = run.sidecar.call("getUser", ["refresh": true, "profile": "native"])
    #expect((fetched.result?["user"] as? [String: Any])?["email"] as? String == "alice@example.com", "\(fetched)")
    // The listener is closed once the code came.
    #expect(throws: LoopbackHTTP.Failure.refused) { try LoopbackHTTP.get(location) }
    let stderr = run.sidecar.finish()
    let code = location.components(separatedBy: "code=").last?.components(separatedBy: "&").first ?? "<none>"
    #expect(!stderr.contains(code), "the authorization code stays out of the log")
    let query = URLComponents(string: authorizationURL)?.queryItems ?? []
    for name in ["state", "nonce", "code_challenge"] {
      let value = try #require(query.first { $0.name == name }?.value, "\(name) in the authorization URL")
      #expect(!stderr.contains(value), "\(name) stays out of the log")
    }
  }

  @Test func anAccessDeniedRedirectIsInvalidCredentials() throws {
    let run = try Run("code-denied")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "authorizationCode", "profile": "native"])
    let prompt = try #require(run.sidecar.prompt(for: id))
    let redirectURI = try #require(prompt["redirectUri"] as? String)
    let authorizationURL = try #require(prompt["authorizationUrl"] as? String)
    let url = try #require(URLComponents(string: authorizationURL))
    let state = try #require(url.queryItems?.first { $0.name == "state" }?.value)
    // What the server sends when the user clicks "deny" on its consent page.
    let page = try LoopbackHTTP.get(redirectURI + "?error=access_denied&state=" + state)
    #expect(page.status == 200)
    let login = run.sidecar.answer(for: id)
    #expect(login.errorKind == "invalid_credentials", "\(login)")
    #expect(OAuth2ProviderEndToEndTests.errorData(login)?["provider"] as? String == "access_denied")
    #expect(run.sidecar.call("getUser", ["profile": "native"]).errorKind == "not_logged_in")
    _ = run.sidecar.finish()
  }

  @Test func aCancelledAuthorizationCodeLoginClosesItsPort() throws {
    let run = try Run("code-cancel")
    defer { run.stop() }
    let id = run.sidecar.send("login", ["flow": "authorizationCode", "profile": "native"])
    let redirectURI = try #require(run.sidecar.prompt(for: id)?["redirectUri"] as? String)
    run.sidecar.cancel(id)
    #expect(run.sidecar.answer(for: id).errorKind == "cancelled")
    #expect(throws: LoopbackHTTP.Failure.refused) { try LoopbackHTTP.get(redirectURI + "?code=late&state=late") }
    #expect(run.sidecar.call("getUser", ["profile": "native"]).errorKind == "not_logged_in")
    _ = run.sidecar.finish()
  }

  // MARK: - Params

  @Test func aPasswordWithAnInteractiveFlowIsRefusedAndOtherProvidersAreUnsupported() throws {
    let run = try Run("params")
    defer { run.stop() }
    let password = "never-echoed-\(UUID().uuidString)"
    let refused = run.sidecar.call("login", ["flow": "device", "password": password])
    #expect(refused.errorKind == "validation_failed", "\(refused)")
    let fields = OAuth2ProviderEndToEndTests.errorData(refused)?["fields"] as? [String: Any]
    #expect(((fields?["password"] as? [String: Any])?["errors"] as? [[String: Any]])?.first?["code"] as? String == "not_taken")
    #expect(run.sidecar.call("login", ["flow": "phone"]).errorKind == "invalid_params")
    // flow "password" is the old login, with its validation.
    let noPassword = run.sidecar.call("login", ["flow": "password", "profile": "local", "account": "alice"])
    let passwordField = (OAuth2ProviderEndToEndTests.errorData(noPassword)?["fields"] as? [String: Any])?["password"]
    #expect(((passwordField as? [String: Any])?["errors"] as? [[String: Any]])?.first?["code"] as? String == "required")
    let wrong = run.sidecar.call("login", ["flow": "password", "profile": "local", "account": "alice", "password": password])
    #expect(wrong.errorKind == "invalid_credentials", "\(wrong)")
    #expect(run.sidecar.call("login", ["flow": "device", "profile": "local"]).errorKind == "unsupported")
    #expect(run.sidecar.call("login", ["flow": "authorizationCode"]).errorKind == "unsupported", "not in flows")
    let stderr = run.sidecar.finish()
    #expect(!stderr.contains(password))
    #expect(!run.sidecar.transcript.contains(password))
  }
}

// MARK: - Support

extension OAuth2InteractiveEndToEndTests {
  /// The shared server, a state dir and a config for one test, and a sidecar on them.
  final class Run {
    let server: AuthServerProcess
    let fixture: StateFixture
    let sidecar: ProviderSidecar

    init(_ name: String) throws {
      server = try OAuth2InteractiveEndToEndTests.shared.get()
      fixture = try StateFixture("oauth2-interactive-\(name)")
      let configPath = fixture.root + "/config.json"
      try Data(Self.config(issuer: server.url + "/o").utf8).write(to: URL(fileURLWithPath: configPath))
      sidecar = try ProviderSidecar(config: configPath, fixture: fixture, logLevel: "debug", checksExitStatus: true)
      // The server is shared: counters start at zero, and no fault a failed test left behind reaches this one.
      _ = try LoopbackHTTP.postJSON(server.url + "/_test/reset", [String: Any]())
    }

    /// `default`: the device client (device flow only); `native`: the PKCE client; `local`: no interactive flows.
    static func config(issuer: String) -> String {
      #"""
      {"profiles": {
        "default": {"provider": "oauth2",
                    "oauth2": {"issuer": "\#(issuer)", "clientId": "sidecar-device", "flows": ["device"]}},
        "native": {"provider": "oauth2",
                   "oauth2": {"issuer": "\#(issuer)", "clientId": "sidecar-native", "flows": ["authorizationCode"],
                              "interactiveTimeoutSeconds": 120}},
        "local": {"provider": "local"}
      }}
      """#
    }

    /// A fault at the shared server (see Tests/Servers/README.md); it fires on the next matching requests.
    func fault(_ fault: [String: Any]) throws {
      _ = try LoopbackHTTP.postJSON(server.url + "/_test/faults", fault)
    }

    func approve(_ userCode: String, as username: String, _ action: String) throws {
      _ = try LoopbackHTTP.postJSON(
        server.url + "/_test/device/approve", ["user_code": userCode, "username": username, "action": action])
    }

    /// The browser's part: logged in at the server (a session cookie), it opens the authorization URL; the
    /// server answers 302 to our redirect URI, which is returned, not followed.
    func browserAuthorizes(_ authorizationURL: String, as username: String) throws -> String {
      let session = try #require(
        try LoopbackHTTP.postJSON(server.url + "/_test/session", ["username": username]) as? [String: Any])
      let cookie = try #require(session["cookie"] as? String)
      let answer = try LoopbackHTTP.get(authorizationURL, headers: ["Cookie": cookie])
      #expect(answer.status == 302, "authorize answered \(answer.status)")
      return try #require(answer.header("location"))
    }

    func stop() {
      sidecar.kill()
      fixture.remove()
    }
  }
}
