import AuthStorage
import Foundation
import Testing

/// The `form` provider through the real binary against Django's own login form (`/accounts/` of Tests/Servers):
/// hidden CSRF input and cookie, 302 with a `sessionid` on success, 200 with the form again on failure, 403 when
/// the CSRF check fails, a profile page in HTML and in JSON, and a logout that needs the CSRF token.
///
/// Profiles: `default` reads the user off the HTML profile page and proves success with the session cookie and
/// the redirect target, logging out with the logout form's hidden inputs; `json` reads `profile.json`, has no
/// success rules (the login form must be gone) and logs out with the `csrftoken` cookie in `X-CSRFToken`;
/// `elsewhere` and `offsite` are the server's two cross-origin traps.
///
/// Each test starts its own server (≈ 0.5 s). Evidence comes from the server's `/_test/counters`; nothing is
/// timed, a hung call fails after the harness's generous 60 s guard.
@Suite(.serialized) struct FormProviderEndToEndTests {
  static let password = "correct horse battery staple"
  static let alice = ["username": "alice", "password": password]

  // MARK: - Success

  @Test func loginReadsTheUserFromTheHTMLProfileAndKeepsTheCookieInside() throws {
    let harness = try Harness("html")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let started = Date().timeIntervalSince1970
    let login = sidecar.call("login", Self.alice)
    let user = try #require(login.result?["user"] as? [String: Any], "login: \(login)")
    #expect(user["id"] as? String == "1")
    #expect(user["username"] as? String == "alice")
    #expect(user["email"] as? String == "alice@example.com")
    #expect(user["displayName"] as? String == "Alice")
    let session = try #require(login.result?["session"] as? [String: Any])
    // No bearer token: the credential is the site's cookie, and it stays in the sidecar.
    #expect(session["tokenType"] as? String == "cookie")
    #expect(session["accessToken"] == nil)
    // Django's sessionid lives two weeks (Max-Age 1209600): expiresAt is the cookie's.
    let expiresAt = try #require(unixTime(session["expiresAt"]))
    #expect(abs(expiresAt - (started + 1_209_600)) < 60, "expiresAt \(session["expiresAt"] ?? "-")")

    let fetched = sidecar.call("getUser", ["refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["email"] as? String == "alice@example.com")
    let refreshed = sidecar.call("refreshToken", ["force": true])
    #expect((refreshed.result?["session"] as? [String: Any])?["tokenType"] as? String == "cookie", "\(refreshed)")

    let status = sidecar.call("status")
    let profiles = status.result?["profiles"] as? [[String: Any]] ?? []
    let profile = try #require(profiles.first { $0["name"] as? String == "default" }, "status: \(status)")
    #expect(profile["provider"] as? String == "form")
    #expect(profile["loggedIn"] as? Bool == true)
    let capabilities = status.result?["capabilities"] as? [String: Any]
    #expect((capabilities?["providers"] as? [String])?.contains("form") == true)

    let counters = try harness.counters()
    #expect(counters.count("login", "form") == 1)
    // The login's redirect to the profile (followed, as a browser does, and read for the user), getUser
    // {refresh: true}, and the forced refresh.
    #expect(counters.count("user", "form") == 3)
    #expect(counters.count("csrf_rejected", "form") == 0)
    _ = sidecar.finish()
  }

  @Test func theJSONProfileAndANonASCIIUsername() throws {
    let harness = try Harness("json")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for profile in ["default", "json"] {
      let login = sidecar.call("login", ["profile": profile, "username": "名字用户", "password": Self.password])
      let user = login.result?["user"] as? [String: Any]
      #expect(user?["username"] as? String == "名字用户", "\(profile): \(login)")
      #expect(user?["id"] as? String == "3")
    }
    let fetched = sidecar.call("getUser", ["profile": "json", "refresh": true])
    #expect(fetched.result?["stale"] as? Bool == false, "getUser: \(fetched)")
    #expect((fetched.result?["user"] as? [String: Any])?["username"] as? String == "名字用户")
    _ = sidecar.finish()
  }

  /// libxml2 (and the ICU it pulls in) is opened on the first page parsed, never at start: hosts that only
  /// validate, or log in elsewhere, do not pay for it.
  @Test func libxml2IsLoadedOnlyWhenAPageIsParsed() throws {
    let harness = try Harness("dlopen")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    // Read to the end: /proc files report a size of 0, and a Swift process maps far more than one page of lines.
    let maps = {
      let file = FileHandle(forReadingAtPath: "/proc/\(sidecar.live.pid)/maps")
      defer { try? file?.close() }
      return String(decoding: (try? file?.readToEnd()) ?? Data(), as: UTF8.self)
    }
    #expect(sidecar.call("validate", ["username": "alice"]).result != nil)
    #expect(!maps().contains("libxml2"), "libxml2 is mapped before any page was parsed")
    #expect(sidecar.call("login", Self.alice).result != nil)
    #expect(maps().contains("libxml2"), "no libxml2 after a form login")
    _ = sidecar.finish()
  }

  // MARK: - Refused logins

  @Test func wrongPasswordAndInactiveAccountAreInvalidCredentials() throws {
    let harness = try Harness("refused")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for profile in ["default", "json"] {
      for (username, password) in [("alice", "not the right password"), ("mallory", Self.password)] {
        let answer = sidecar.call("login", ["profile": profile, "username": username, "password": password])
        #expect(answer.errorKind == "invalid_credentials", "\(profile) \(username): \(answer)")
      }
      #expect(sidecar.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    let counters = try harness.counters()
    #expect(counters.count("login_failed", "form") == 4)
    #expect(counters.count("csrf_rejected", "form") == 0)
    _ = sidecar.finish()
  }

  /// The login page is served without its hidden CSRF input: the sidecar still posts, Django's CSRF check
  /// refuses it with 403, and the host hears that the site refused the request — not that the password is wrong.
  @Test func aMissingCSRFTokenIsTheSiteRefusingTheRequest() throws {
    let harness = try Harness("csrf")
    defer { harness.stop() }
    try harness.fault([
      "path": "/accounts/login/", "method": "GET", "mode": "status", "status": 200, "content_type": "text/html",
      "body": #"<form id="login-form" method="post" action="/accounts/login/"><input name="username">"#
        + #"<input type="password" name="password"></form>"#,
    ])
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", Self.alice)
    #expect(answer.errorKind == "bad_response", "login: \(answer)")
    #expect(answer.errorData?["status"] as? Int == 403)
    let counters = try harness.counters()
    #expect(counters.count("csrf_rejected", "form") == 1)
    #expect(counters.count("login", "form") == 0)
    _ = sidecar.finish()
  }

  // MARK: - Other origins

  /// The login works at the server, but its redirect leads to 127.0.0.2: not followed. Following it would have
  /// tried to connect there (nothing listens) and answered network_unavailable.
  @Test func aRedirectToAnotherOriginIsNotFollowed() throws {
    let harness = try Harness("elsewhere")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", Self.alice.merging(["profile": "elsewhere"]) { $1 })
    #expect(answer.errorKind == "bad_response", "login: \(answer)")
    #expect(sidecar.call("getUser", ["profile": "elsewhere"]).errorKind == "not_logged_in")
    let stderr = sidecar.finish()
    #expect(!stderr.contains("127.0.0.2:1/"), "a request went to 127.0.0.2: \(stderr)")
  }

  /// The form's action is on 127.0.0.2: the password is never posted anywhere.
  @Test func aFormActionOnAnotherOriginIsRefusedBeforeAnythingIsSent() throws {
    let harness = try Harness("offsite")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let answer = sidecar.call("login", Self.alice.merging(["profile": "offsite"]) { $1 })
    #expect(answer.errorKind == "bad_response", "login: \(answer)")
    let counters = try harness.counters()
    let requests = counters["requests"] as? [String: Int] ?? [:]
    #expect(requests.keys.filter { $0.hasPrefix("POST") }.isEmpty, "requests: \(requests)")
    #expect(counters.requests("GET /accounts/login-offsite/") == 1)
    let stderr = sidecar.finish()
    #expect(!stderr.contains("127.0.0.2:1/"), "a request went to 127.0.0.2: \(stderr)")
  }

  // MARK: - Logout

  /// Logout posts with the CSRF token (the logout form's hidden input, or the cookie in X-CSRFToken); afterwards
  /// the server no longer knows the old cookie: a copy of the store made before the logout, holding the very same
  /// cookie, is told the session is over.
  @Test func logoutEndsTheSessionAtTheServer() throws {
    let harness = try Harness("logout")
    defer { harness.stop() }
    let copy = try harness.loginAndCopyState(Self.alice, profiles: ["default", "json"])

    let original = try harness.sidecar()
    for profile in ["default", "json"] {
      let logout = original.call("logout", ["profile": profile])
      #expect(logout.result?["revoked"] as? Bool == true, "\(profile): \(logout)")
      #expect(original.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    var counters = try harness.counters()
    #expect(counters.count("logout", "form") == 2)
    #expect(counters.count("csrf_rejected", "form") == 0)
    _ = original.finish()

    let clone = try harness.sidecar(state: copy)
    for profile in ["default", "json"] {
      let answer = clone.call("getUser", ["profile": profile, "refresh": true])
      #expect(answer.errorKind == "session_expired", "\(profile): \(answer)")
      #expect(clone.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    counters = try harness.counters()
    #expect((counters.count("user_unauthorized", "form") ?? 0) >= 2)
    #expect(clone.notifications.contains { $0.sessionState == "expired" })
    _ = clone.finish()
  }

  // A down, slow or overloaded server, and secret hygiene at trace level: RemoteProviderEndToEndTests.

  /// The profile's stored cookies, decrypted with the store key: secrets that never leave the sidecar.
  static func cookieValues(stateDirectory: String, profile: String) throws -> [String: String] {
    let store = try Store(explicitStateDirectory: stateDirectory, environment: [:])
    let state = try store.read { try $0.session(profile: profile) }?.providerState ?? []
    let jar = try JSONSerialization.jsonObject(with: Data(state)) as? [String: Any]
    var values: [String: String] = [:]
    for cookie in jar?["cookies"] as? [[String: Any]] ?? [] {
      if let name = cookie["name"] as? String, let value = cookie["value"] as? String { values[name] = value }
    }
    return values
  }
}

extension FormProviderEndToEndTests {
  /// One Django server, a state dir and a config file with the form profiles, for one test.
  final class Harness: ServerHarness {
    init(_ name: String, timeoutSeconds: Int = 10) throws {
      try super.init("form-\(name)") { url in Self.config(url: url, timeoutSeconds: timeoutSeconds) }
    }

    static func config(url: String, timeoutSeconds: Int) -> String {
      #"""
      {"profiles": {
        "default": {
          "provider": "form",
          "validation": {"usernamePattern": "[\\p{L}\\p{N}_.@-]+"},
          "form": {
            "loginURL": "\#(url)/accounts/login/",
            "form": {"id": "login-form"},
            "success": {"sessionCookie": "sessionid", "redirectPath": "/accounts/profile/"},
            "user": {"url": "\#(url)/accounts/profile/", "format": "html",
                     "fields": {"id": "#profile dd.id", "username": "#profile .username", "email": "#profile .email",
                                "displayName": "#profile .first_name"}},
            "logout": {"url": "\#(url)/accounts/logout/", "method": "POST",
                       "csrf": {"formURL": "\#(url)/accounts/profile/", "formId": "logout-form"}},
            "timeoutSeconds": \#(timeoutSeconds)
          }
        },
        "json": {
          "provider": "form",
          "validation": {"usernamePattern": "[\\p{L}\\p{N}_.@-]+"},
          "form": {
            "loginURL": "\#(url)/accounts/login/",
            "user": {"url": "\#(url)/accounts/profile.json", "format": "json",
                     "fields": {"displayName": "first_name"}},
            "logout": {"url": "\#(url)/accounts/logout/", "csrf": {"cookie": "csrftoken", "header": "X-CSRFToken"}},
            "timeoutSeconds": \#(timeoutSeconds)
          }
        },
        "elsewhere": {
          "provider": "form",
          "form": {
            "loginURL": "\#(url)/accounts/login-elsewhere/",
            "success": {"sessionCookie": "sessionid"},
            "user": {"url": "\#(url)/accounts/profile.json"},
            "timeoutSeconds": \#(timeoutSeconds)
          }
        },
        "offsite": {
          "provider": "form",
          "form": {
            "loginURL": "\#(url)/accounts/login-offsite/",
            "user": {"url": "\#(url)/accounts/profile.json"},
            "timeoutSeconds": \#(timeoutSeconds)
          }
        }
      }}
      """#
    }
  }
}
