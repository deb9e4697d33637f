import Foundation
import Testing

/// A PHP-style flag API (`/php/login.php` of Tests/Servers, `authservers/core/legacyapis.py`) through the real
/// binary: a form-encoded login answered `{"accountBeingOrNotFlag": "1", "loginOKOrNotFlag": "1"}` labelled
/// `text/html`, with no token at all. The sidecar reads the flags with `success` / `unknownAccount` conditions and
/// keeps a tokenless session (`tokenType: "none"`). The accounts are the server's, compared exactly as typed.
@Suite(.serialized) struct FlagAPIEndToEndTests {
  static let password = "correct horse battery staple"
  static var xiaoming: [String: Any] { ["username": "xiaoming", "password": password] }

  @Test func theRightPasswordLogsInWithoutAToken() throws {
    let harness = try Harness("success")
    defer { harness.stop() }
    let sidecar = try harness.sidecar(arguments: ServerHarness.testClock)
    let login = sidecar.call("login", Self.xiaoming)
    let user = try #require(login.user, "login: \(login)")
    // The answer itself is the user: `userId` and `nickName` beside the flags.
    #expect(user["id"] as? String == "1003")
    #expect(user["username"] as? String == "xiaoming")
    #expect(user["displayName"] as? String == "小明")
    let session = try #require(login.result?["session"] as? [String: Any])
    #expect(session["tokenType"] as? String == "none")
    #expect(session["accessToken"] == nil)
    // No expiry from the server: the next re-check, sessionLifetimeSeconds (the default, a day) away.
    #expect(session["expiresAt"] as? String == "2027-01-02T00:00:00Z")
    #expect(sidecar.notifications.contains { $0.sessionState == "loggedIn" })

    // What reached the server: the form fields as configured, the password left out of the record.
    let received = try Self.lastReceived(harness)
    #expect(received["User_Account"] as? String == "xiaoming")
    #expect(received["Account_Type"] as? String == "NormalName")
    #expect(received["User_Password"] == nil)
    _ = sidecar.finish()
  }

  /// The session is the sidecar's own: it survives a getUser, a restart, and a day passing with nobody to ask
  /// (no refresh or user endpoint), until logout.
  @Test func aTokenlessSessionLastsAcrossGetUserAndRestartUntilLogout() throws {
    let harness = try Harness("restart")
    defer { harness.stop() }
    let first = try harness.sidecar(arguments: ServerHarness.testClock)
    #expect(first.call("login", Self.xiaoming).user != nil)
    let fetched = first.call("getUser", ["refresh": true])
    #expect(fetched.user?["id"] as? String == "1003", "getUser: \(fetched)")
    #expect(fetched.result?["stale"] as? Bool == false)
    _ = first.finish()

    let second = try harness.sidecar(arguments: ServerHarness.testClock)
    let again = second.call("getUser")
    #expect(again.user?["displayName"] as? String == "小明", "after restart: \(again)")
    let session = try #require(again.result?["session"] as? [String: Any])
    #expect(session["tokenType"] as? String == "none" && session["accessToken"] == nil)
    #expect(second.call("test.advanceClock", ["seconds": 86_400 + 60]).result != nil)
    let nextDay = second.call("getUser")
    #expect(nextDay.user?["id"] as? String == "1003", "a day later: \(nextDay)")
    let moved = (nextDay.result?["session"] as? [String: Any])?["expiresAt"] as? String
    #expect(moved == "2027-01-03T00:01:00Z", "expiresAt \(moved ?? "-")")
    let logout = second.call("logout")
    #expect(logout.result?["loggedOut"] as? Bool == true)
    #expect(logout.result?["revoked"] as? Bool == false)  // nothing to revoke at a flag API
    #expect(second.call("getUser").errorKind == "not_logged_in")
    _ = second.finish()
    // One login request, and nothing else asked of the server.
    #expect(try harness.counters().requests("POST /php/login.php") == 1)
  }

  /// The flag API answers 200 to every login: only the flags tell a wrong password from the right one.
  @Test func aWrongPasswordNeverLogsIn() throws {
    let harness = try Harness("wrong")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for profile in ["default", "unknown"] {
      let answer = sidecar.call("login", ["profile": profile, "username": "xiaoming", "password": "not it"])
      #expect(answer.errorKind == "invalid_credentials", "\(profile): \(answer)")
      // The account exists: no reason, even where the profile reads unknown accounts.
      #expect(answer.errorData?["reason"] == nil)
      #expect(sidecar.call("getUser", ["profile": profile]).errorKind == "not_logged_in")
    }
    #expect(!sidecar.notifications.contains { $0.sessionState == "loggedIn" })
    _ = sidecar.finish()
  }

  /// Generic by default, so the sidecar never tells which accounts exist; `unknown_account` only where the
  /// profile reads it from the server's own flag.
  @Test func anUnknownAccountIsGenericUnlessConfigured() throws {
    let harness = try Harness("unknown")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let nobody: [String: Any] = ["username": "nobody", "password": Self.password]
    let generic = sidecar.call("login", nobody)
    #expect(generic.errorKind == "invalid_credentials", "default: \(generic)")
    #expect(generic.errorData?["reason"] == nil)
    let revealed = sidecar.call("login", nobody.merging(["profile": "unknown"]) { $1 })
    #expect(revealed.errorKind == "invalid_credentials", "unknown: \(revealed)")
    #expect(revealed.errorData?["reason"] as? String == "unknown_account")
    #expect(revealed.errorData?["retryable"] as? Bool == false)
    // The profile that reads unknown accounts still logs a known one in.
    #expect(sidecar.call("login", Self.xiaoming.merging(["profile": "unknown"]) { $1 }).user != nil)
    _ = sidecar.finish()
  }

  /// The only config that loaded before success conditions existed: the flag read as the access token. A "token"
  /// of `"0"` or `"1"` is no token, so both answers are `bad_response` and nothing is stored.
  @Test func aFlagReadAsTheTokenIsABadResponseNeverALogin() throws {
    let harness = try Harness("flag-as-token")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for password in ["not it", Self.password] {
      let answer = sidecar.call("login", ["profile": "flagtoken", "username": "xiaoming", "password": password])
      #expect(answer.errorKind == "bad_response", "\(answer)")
      #expect(sidecar.call("getUser", ["profile": "flagtoken"]).errorKind == "not_logged_in")
    }
    _ = sidecar.finish()
  }

  /// Configs that could never tell a refused login from an accepted one stop the sidecar at start, naming the
  /// place to fix.
  @Test(arguments: [
    (#""user": "data""#, "profiles.default.rest.response.accessToken"),
    (#""success": []"#, "profiles.default.rest.response.success"),
    (#""success": {"path": "loginOKOrNotFlag"}"#, "profiles.default.rest.response.success.equals"),
  ])
  func refusedConfigsExitAtStart(response: String, path: String) throws {
    let fixture = try StateFixture("flag-config")
    defer { fixture.remove() }
    let config = Harness.config(url: "http://127.0.0.1:9", response: response)
    let (status, stderr) = try fixture.run(config: config)
    #expect(status == 78, "stderr: \(stderr)")
    #expect(stderr.contains(path), "stderr: \(stderr)")
  }

  static func lastReceived(_ harness: ServerHarness) throws -> [String: Any] {
    let answer = try LoopbackHTTP.get(harness.server.url + "/_test/legacy/received")
    let received = (answer.json?["received"] as? [[String: Any]]) ?? []
    return try #require(received.last?["fields"] as? [String: Any], "received: \(received)")
  }
}

extension FlagAPIEndToEndTests {
  final class Harness: ServerHarness {
    static let success = #""success": {"path": "loginOKOrNotFlag", "equals": "1"}"#

    init(_ name: String) throws {
      try super.init("flag-\(name)") { url in
        let unknown = Self.success + #", "unknownAccount": {"path": "accountBeingOrNotFlag", "equals": "0"}"#
        let flagAsToken = #""accessToken": "loginOKOrNotFlag""#
        return #"{"profiles": {"default": \#(Self.profile(url: url, response: Self.success)), "#
          + #""unknown": \#(Self.profile(url: url, response: unknown)), "#
          + #""flagtoken": \#(Self.profile(url: url, response: flagAsToken))}}"#
      }
    }

    /// A config whose `default` profile is the flag API with this `response`.
    static func config(url: String, response: String) -> String {
      #"{"profiles": {"default": \#(profile(url: url, response: response))}}"#
    }

    static func profile(url: String, response: String) -> String {
      #"""
      {"provider": "rest",
       "rest": {
         "baseURL": "\#(url)",
         "login": {"path": "/php/login.php", "encoding": "form",
                   "body": {"User_Account": "{account}", "User_Password": "{password}", "Account_Type": "NormalName"}},
         "response": {\#(response)},
         "userFields": {"id": "userId", "displayName": "nickName"}
       }}
      """#
    }
  }
}
