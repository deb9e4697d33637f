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
    let harness = try Harness("device")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "device"])
    let prompt = try #require(sidecar.prompt(for: id), "no loginPrompt")
    #expect(prompt["profile"] as? String == "default")
    #expect(prompt["flow"] as? String == "device")
    #expect(prompt["id"] as? Int == id)
    #expect((prompt["verificationUri"] as? String)?.hasPrefix(harness.server.url + "/o/device") == true, "\(prompt)")
    #expect(unixTime(prompt["expiresAt"]) != nil)
    let userCode = try #require(prompt["userCode"] as? String)

    try harness.approve(userCode, as: "alice", "accept")
    let login = sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "alice", "login: \(login)")
    #expect(sidecar.notifications.contains { $0.sessionState == "loggedIn" })

    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["id"] as? String == "1")
    let refreshed = sidecar.call("refreshToken", ["force": true])
    #expect(refreshed.accessToken != nil && refreshed.accessToken != login.accessToken, "refresh: \(refreshed)")
    let stderr = sidecar.finish()
    #expect(!stderr.contains(refreshed.accessToken ?? "<none>"))
    #expect(!stderr.contains("device_code="), "the device code stays out of the log")
  }

  @Test func aDeniedDeviceCodeIsInvalidCredentialsFromAccessDenied() throws {
    let harness = try Harness("device-deny")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "device", "locale": "zh-Hans"])
    let userCode = try #require(sidecar.prompt(for: id)?["userCode"] as? String)
    try harness.approve(userCode, as: "alice", "deny")
    let login = sidecar.answer(for: id)
    #expect(login.errorKind == "invalid_credentials", "\(login)")
    #expect(login.errorData?["provider"] as? String == "access_denied")
    #expect((login["error"] as? [String: Any])?["message"] as? String == "登录未获批准。")
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    _ = sidecar.finish()
  }

  @Test func aCancelledDeviceLoginAnswersCancelledAndStoresNothing() throws {
    let harness = try Harness("device-cancel")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "device"])
    let userCode = try #require(sidecar.prompt(for: id)?["userCode"] as? String)
    // Meanwhile the profile is not blocked: reads are answered at once.
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    sidecar.cancel(id)
    let login = sidecar.answer(for: id)
    #expect(login.errorKind == "cancelled", "\(login)")
    // Approving now changes nothing: the sidecar stopped polling.
    try harness.approve(userCode, as: "alice", "accept")
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    #expect(!sidecar.notifications.contains { $0.sessionState == "loggedIn" })
    _ = sidecar.finish()
  }

  /// stdin closes while a device login waits for the user: it answers `cancelled` and the process exits 0,
  /// without waiting for the user (the drain would otherwise wait 10 s, and the test's guard is far longer).
  @Test func shutdownCancelsAPendingInteractiveLogin() throws {
    let harness = try Harness("device-shutdown")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "device"])
    #expect(sidecar.prompt(for: id) != nil)
    sidecar.closeInput()
    #expect(sidecar.answer(for: id).errorKind == "cancelled")
    _ = sidecar.finish()
  }

  /// Transient trouble while polling (a 502 the client does not retry, for a POST) is ridden out; the login
  /// still completes once the user approves.
  @Test func aPollThatMeetsServerTroubleKeepsPolling() throws {
    let harness = try Harness("device-fault")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    try harness.fault(["path": "/o/token/", "method": "POST", "status": 502, "count": 2])
    let id = sidecar.send("login", ["flow": "device"])
    let userCode = try #require(sidecar.prompt(for: id)?["userCode"] as? String)
    try harness.approve(userCode, as: "alice", "accept")
    let login = sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "alice", "\(login)")
    let counters = try harness.counters()
    #expect(counters["faults_fired"] as? Int == 2, "both faults met a poll")
    _ = sidecar.finish()
  }

  /// Any refusal other than pending / slow_down ends the polling (RFC 8628 §3.5): here the server refuses
  /// the client, which no further poll can fix.
  @Test func aPollRefusedForAnotherReasonEndsTheLogin() throws {
    let harness = try Harness("device-refused")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    try harness.fault([
      "path": "/o/token/", "method": "POST", "status": 401, "content_type": "application/json",
      "body": #"{"error": "invalid_client"}"#,
    ])
    let id = sidecar.send("login", ["flow": "device"])
    #expect(sidecar.prompt(for: id) != nil)
    let login = sidecar.answer(for: id)
    #expect(login.errorKind == "bad_response", "\(login)")
    #expect(login.errorData?["provider"] as? String == "invalid_client")
    _ = sidecar.finish()
  }

  @Test func aNonASCIIUserLogsInWithTheDeviceFlow() throws {
    let harness = try Harness("device-unicode")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "device"])
    let userCode = try #require(sidecar.prompt(for: id)?["userCode"] as? String)
    try harness.approve(userCode, as: "名字用户", "accept")
    let login = sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "名字用户", "\(login)")
    #expect((sidecar.call("getUser").result?["user"] as? [String: Any])?["id"] as? String == "3")
    _ = sidecar.finish()
  }

  // MARK: - Authorization code

  @Test func authorizationCodeLoginThroughTheLoopbackRedirect() throws {
    let harness = try Harness("code")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "authorizationCode", "profile": "native"])
    let prompt = try #require(sidecar.prompt(for: id), "no loginPrompt")
    let authorizationURL = try #require(prompt["authorizationUrl"] as? String)
    let redirectURI = try #require(prompt["redirectUri"] as? String)
    #expect(authorizationURL.hasPrefix(harness.server.url + "/o/authorize/?"), "\(authorizationURL)")
    #expect(authorizationURL.contains("code_challenge_method=S256"))
    #expect(redirectURI.hasPrefix("http://127.0.0.1:") && redirectURI.hasSuffix("/callback"), "\(redirectURI)")

    let location = try harness.browserAuthorizes(authorizationURL, as: "alice")
    #expect(location.hasPrefix(redirectURI + "?"), "302 to \(location)")
    // Stray requests to the listener are answered and do not end the wait.
    #expect(try LoopbackHTTP.get(redirectURI.replacingOccurrences(of: "/callback", with: "/favicon.ico")).status == 404)
    #expect(try LoopbackHTTP.get(redirectURI + "?code=forged&state=wrong").status == 400)
    let landing = try LoopbackHTTP.get(location)
    #expect(landing.status == 200)
    #expect(landing.header("cache-control") == "no-store")

    let login = sidecar.answer(for: id)
    #expect((login.result?["user"] as? [String: Any])?["username"] as? String == "alice", "login: \(login)")
    let fetched = sidecar.call("getUser", ["refresh": true, "profile": "native"])
    #expect((fetched.result?["user"] as? [String: Any])?["email"] as? String == "alice@example.com", "\(fetched)")
    // The listener is closed once the code came.
    #expect(throws: LoopbackHTTP.Failure.refused) { try LoopbackHTTP.get(location) }
    let stderr = sidecar.finish()
    let code = location.components(separatedBy: "code=").last?.components(separatedBy: "&").first ?? "<none>"
    #expect(!stderr.contains(code), "the authorization code stays out of the log")
    let query = URLComponents(string: authorizationURL)?.queryItems ?? []
    for name in ["state", "nonce", "code_challenge"] {
      let value = try #require(query.first { $0.name == name }?.value, "\(name) in the authorization URL")
      #expect(!stderr.contains(value), "\(name) stays out of the log")
    }
  }

  @Test func anAccessDeniedRedirectIsInvalidCredentials() throws {
    let harness = try Harness("code-denied")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "authorizationCode", "profile": "native"])
    let prompt = try #require(sidecar.prompt(for: id))
    let redirectURI = try #require(prompt["redirectUri"] as? String)
    let authorizationURL = try #require(prompt["authorizationUrl"] as? String)
    let url = try #require(URLComponents(string: authorizationURL))
    let state = try #require(url.queryItems?.first { $0.name == "state" }?.value)
    // What the server sends when the user clicks "deny" on its consent page.
    let page = try LoopbackHTTP.get(redirectURI + "?error=access_denied&state=" + state)
    #expect(page.status == 200)
    let login = sidecar.answer(for: id)
    #expect(login.errorKind == "invalid_credentials", "\(login)")
    #expect(login.errorData?["provider"] as? String == "access_denied")
    #expect(sidecar.call("getUser", ["profile": "native"]).errorKind == "not_logged_in")
    _ = sidecar.finish()
  }

  @Test func aCancelledAuthorizationCodeLoginClosesItsPort() throws {
    let harness = try Harness("code-cancel")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let id = sidecar.send("login", ["flow": "authorizationCode", "profile": "native"])
    let redirectURI = try #require(sidecar.prompt(for: id)?["redirectUri"] as? String)
    sidecar.cancel(id)
    #expect(sidecar.answer(for: id).errorKind == "cancelled")
    #expect(throws: LoopbackHTTP.Failure.refused) { try LoopbackHTTP.get(redirectURI + "?code=late&state=late") }
    #expect(sidecar.call("getUser", ["profile": "native"]).errorKind == "not_logged_in")
    _ = sidecar.finish()
  }

  // MARK: - Params

  @Test func aPasswordWithAnInteractiveFlowIsRefusedAndOtherProvidersAreUnsupported() throws {
    let harness = try Harness("params")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let password = "never-echoed-\(UUID().uuidString)"
    let refused = sidecar.call("login", ["flow": "device", "password": password])
    #expect(refused.errorKind == "validation_failed", "\(refused)")
    let fields = refused.errorData?["fields"] as? [String: Any]
    #expect(((fields?["password"] as? [String: Any])?["errors"] as? [[String: Any]])?.first?["code"] as? String == "not_taken")
    #expect(sidecar.call("login", ["flow": "phone"]).errorKind == "invalid_params")
    // flow "password" is the old login, with its validation.
    let noPassword = sidecar.call("login", ["flow": "password", "profile": "local", "account": "alice"])
    let passwordField = (noPassword.errorData?["fields"] as? [String: Any])?["password"]
    #expect(((passwordField as? [String: Any])?["errors"] as? [[String: Any]])?.first?["code"] as? String == "required")
    let wrong = sidecar.call("login", ["flow": "password", "profile": "local", "account": "alice", "password": password])
    #expect(wrong.errorKind == "invalid_credentials", "\(wrong)")
    #expect(sidecar.call("login", ["flow": "device", "profile": "local"]).errorKind == "unsupported")
    #expect(sidecar.call("login", ["flow": "authorizationCode"]).errorKind == "unsupported", "not in flows")
    let stderr = sidecar.finish()
    #expect(!stderr.contains(password))
    #expect(!sidecar.transcript.contains(password))
  }
}

// MARK: - Support

extension OAuth2InteractiveEndToEndTests {
  /// The shared server, a state dir and a config for one test.
  final class Harness: ServerHarness {
    init(_ name: String) throws {
      try super.init(
        "oauth2-interactive-\(name)", sharedServer: try OAuth2InteractiveEndToEndTests.shared.get(),
        checksExitStatus: true
      ) { url in Self.config(issuer: url + "/o") }
      // The server is shared: counters start at zero, and no fault a failed test left behind reaches this one.
      try reset()
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
  }
}
