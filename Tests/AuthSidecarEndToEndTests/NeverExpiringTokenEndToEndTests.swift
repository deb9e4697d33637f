import Foundation
import Testing

/// A `{success, token, user, message}` API whose database tokens never expire (`/simple/*` of Tests/Servers,
/// `authservers/core/legacyapis.py`), through the real binary on a fixed test clock. The token has no
/// `expiresIn` and is no JWT, so the session is re-checked with the user endpoint every `sessionLifetimeSeconds`
/// (an hour here): kept while the server accepts the token, ended at the server's first 401 — after
/// `/_test/legacy/revoke`, the server ending the user's tokens as an admin or a password change would.
@Suite(.serialized) struct NeverExpiringTokenEndToEndTests {
  static var alice: [String: Any] { ["email": "alice@example.com", "password": "correct horse battery staple"] }
  static let me = "GET /simple/me"

  @Test func theSessionLastsADayOfRechecksAndEndsAtTheFirst401AfterRevocation() throws {
    let harness = try Harness("day")
    defer { harness.stop() }
    let sidecar = try harness.sidecar(arguments: ServerHarness.testClock)
    let login = sidecar.call("login", Self.alice)
    #expect(login.user?["displayName"] as? String == "Alice", "login: \(login)")
    let token = try #require(login.accessToken)
    let session = try #require(login.result?["session"] as? [String: Any])
    #expect(session["expiresAt"] as? String == "2027-01-01T01:00:00Z")  // the first re-check
    #expect(try harness.counters().requests(Self.me) == 0)  // the login answer carried the user

    // A day, an hour at a time: each plain getUser past the re-check time asks the server first.
    for hour in 1...24 {
      #expect(sidecar.call("test.advanceClock", ["seconds": 3600]).result != nil)
      let fetched = sidecar.call("getUser")
      #expect(fetched.result?["stale"] as? Bool == false, "hour \(hour): \(fetched)")
      #expect(fetched.accessToken == token, "hour \(hour)")
      let next = (fetched.result?["session"] as? [String: Any])?["expiresAt"] as? String
      #expect(next == String(format: "2027-01-%02d%@", 1 + (hour + 1) / 24, Self.hour((hour + 1) % 24)))
    }
    #expect(try harness.counters().requests(Self.me) == 24)
    #expect(sidecar.notifications.filter { $0.sessionState == "refreshed" }.count == 24)

    // Between re-checks nothing is asked.
    #expect(sidecar.call("getUser").result != nil)
    #expect(try harness.counters().requests(Self.me) == 24)

    try harness.revoke("alice@example.com")
    #expect(sidecar.call("test.advanceClock", ["seconds": 3600]).result != nil)
    let ended = sidecar.call("getUser")
    #expect(ended.errorKind == "session_expired", "after revocation: \(ended)")
    #expect(sidecar.notifications.last?.sessionState == "expired")
    #expect(try harness.counters().requests(Self.me) == 25)  // the one re-check that met the 401
    #expect(sidecar.call("getUser").errorKind == "not_logged_in")
    // Twenty-five re-checks at debug level: statuses and paths in the log, never the token or the password.
    let stderr = sidecar.finish()
    #expect(stderr.contains("/simple/me"), "stderr: \(stderr)")
    #expect(!stderr.contains(token))
    #expect(!stderr.contains(Self.alice["password"] as? String ?? "-"))
  }

  /// A session that cannot be refreshed ends at once when `getUser {refresh: true}` meets a 401: one request,
  /// no second try with a refresh that does not exist.
  @Test func aRefusedTokenEndsANonRefreshableSessionAtOnce() throws {
    let harness = try Harness("refused")
    defer { harness.stop() }
    let sidecar = try harness.sidecar(arguments: ServerHarness.testClock)
    #expect(sidecar.call("login", Self.alice).accessToken != nil)
    #expect(sidecar.call("getUser", ["refresh": true]).result?["stale"] as? Bool == false)
    try harness.revoke("alice@example.com")
    let refused = sidecar.call("getUser", ["refresh": true])
    #expect(refused.errorKind == "session_expired", "\(refused)")
    #expect(sidecar.notifications.last?.sessionState == "expired")
    #expect(try harness.counters().requests(Self.me) == 2)
    _ = sidecar.finish()
  }

  /// A server that cannot be reached at the re-check keeps the session, answered from the store as stale.
  @Test func anUnreachableServerAtTheRecheckKeepsTheSessionStale() throws {
    let harness = try Harness("stale")
    defer { harness.stop() }
    let sidecar = try harness.sidecar(arguments: ServerHarness.testClock)
    #expect(sidecar.call("login", Self.alice).accessToken != nil)
    try harness.fault(["path": "/simple/me", "mode": "status", "status": 503, "count": 10])
    #expect(sidecar.call("test.advanceClock", ["seconds": 3600]).result != nil)
    let stale = sidecar.call("getUser")
    #expect(stale.result?["stale"] as? Bool == true, "\(stale)")
    #expect(stale.user?["email"] as? String == "alice@example.com")
    #expect(!sidecar.notifications.contains { $0.sessionState == "expired" })
    _ = sidecar.finish()
  }

  static func hour(_ hour: Int) -> String { String(format: "T%02d:00:00Z", hour) }
}

extension NeverExpiringTokenEndToEndTests {
  final class Harness: ServerHarness {

    init(_ name: String) throws {
      try super.init("simple-\(name)") { url in
        #"""
        {"profiles": {"default": {
          "provider": "rest",
          "rest": {
            "baseURL": "\#(url)",
            "login": {"path": "/simple/login", "body": {"email": "{email}", "password": "{password}"}},
            "user": {"path": "/simple/me", "userPath": "user"},
            "logout": {"path": "/simple/logout", "sendAccessToken": true},
            "response": {"accessToken": "token", "user": "user", "success": "success"},
            "userFields": {"id": "email", "username": "email", "displayName": "name"},
            "authScheme": "Token",
            "sessionLifetimeSeconds": 3600,
            "timeoutSeconds": 5
          }
        }}}
        """#
      }
    }

    /// The server ends every `/simple/` token of `email` now.
    func revoke(_ email: String) throws {
      let answer = try LoopbackHTTP.postJSON(server.url + "/_test/legacy/revoke", ["email": email])
      #expect((answer as? [String: Any])?["revoked"] as? Int == 1, "revoke: \(answer ?? "-")")
    }
  }
}
