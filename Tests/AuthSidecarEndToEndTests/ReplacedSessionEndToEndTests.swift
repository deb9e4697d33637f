import Foundation
import Testing

/// A login that replaces a profile's session ends the old one at the server, as `logout` would, after answering.
@Suite(.serialized) struct ReplacedSessionEndToEndTests {
  /// A copy of the state dir made before the second login still holds the replaced session's refresh token: once
  /// the server has seen the revocation, it refuses that token (SimpleJWT's blacklist, the any-API's families).
  @Test func aNewLoginRevokesTheReplacedSessionAtTheServer() throws {
    let harness = try RESTProviderEndToEndTests.Harness("replace")
    defer { harness.stop() }
    let profiles = ["default", "anyapi"]
    let copy = try harness.loginAndCopyState(RESTProviderEndToEndTests.alice, profiles: profiles)

    let original = try harness.sidecar()
    for profile in profiles {
      let login = original.call("login", RESTProviderEndToEndTests.alice.merging(["profile": profile]) { $1 })
      #expect(login.result != nil, "\(profile): \(login)")
    }
    // The revocation is sent after the answer, never before it: wait for the server to see it (a hang guard of
    // 60 s, not a timing bar).
    var counters = try harness.counters()
    let revocations = { (counters: ServerCounters) in
      (counters.count("logout", "simplejwt") ?? 0) + (counters.count("logout", "anyapi") ?? 0)
    }
    for _ in 0..<600 where revocations(counters) < 2 {
      Thread.sleep(forTimeInterval: 0.1)
      counters = try harness.counters()
    }
    #expect(counters.count("logout", "simplejwt") == 1)
    #expect(counters.count("logout", "anyapi") == 1)
    // The new sessions are untouched.
    for profile in profiles {
      #expect(original.call("getUser", ["profile": profile, "refresh": true]).result != nil, "\(profile)")
    }

    let clone = try harness.sidecar(state: copy)
    for profile in profiles {
      let refresh = clone.call("refreshToken", ["profile": profile, "force": true])
      #expect(refresh.errorKind == "session_expired", "\(profile): \(refresh)")
    }
    _ = original.finish()
    _ = clone.finish()
  }
}
