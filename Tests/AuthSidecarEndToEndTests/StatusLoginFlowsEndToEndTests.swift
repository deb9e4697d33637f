import Foundation
import Testing

/// `status` never offers a flow whose `login` would answer `unsupported`, and says when it cannot know yet: an
/// `oauth2` profile's `loginFlows` are its configured flows that its server announces, against the real
/// django-oauth-toolkit server of Tests/Servers.
@Suite(.serialized) struct StatusLoginFlowsEndToEndTests {
  static let shared = Result { try AuthServerProcess() }

  @Test func aFlowWhoseEndpointTheServerLacksIsNotOffered() throws {
    let harness = try Harness("explicit")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let profile = try #require(Self.profile("noAuthorize", in: sidecar.call("status")))
    // Configured: both. The endpoints name no authorization endpoint, so only the device flow is offered, and no
    // discovery is involved.
    #expect(profile["loginFlows"] as? [String] == ["device"], "\(profile)")
    #expect(profile["discoveryPending"] == nil)
    #expect(sidecar.call("login", ["profile": "noAuthorize", "flow": "authorizationCode"]).errorKind == "unsupported")
    _ = sidecar.finish()
  }

  @Test func discoveryPendingUntilTheServerWasAskedThenItsAnswer() throws {
    let harness = try Harness("discovery")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let before = try #require(Self.profile("default", in: sidecar.call("status")))
    #expect(before["discoveryPending"] as? Bool == true, "\(before)")
    #expect(before["loginFlows"] as? [String] == ["device", "authorizationCode"])
    #expect(try harness.counters().requests("GET /o/.well-known/openid-configuration") == 0, "status fetched nothing")
    // A device login fetches discovery; its prompt shows it is done. Cancelled: nothing else is needed.
    let id = sidecar.send("login", ["flow": "device"])
    #expect(sidecar.prompt(for: id) != nil)
    sidecar.cancel(id)
    #expect(sidecar.answer(for: id).errorKind == "cancelled")
    let after = try #require(Self.profile("default", in: sidecar.call("status")))
    #expect(after["discoveryPending"] as? Bool == false, "\(after)")
    // This server announces both endpoints.
    #expect(after["loginFlows"] as? [String] == ["device", "authorizationCode"])
    let local = try #require(Self.profile("local", in: sidecar.call("status")))
    #expect(local["loginFlows"] as? [String] == ["password"])
    #expect(local["discoveryPending"] == nil)
    _ = sidecar.finish()
  }

  static func profile(_ name: String, in status: [String: Any]) -> [String: Any]? {
    (status.result?["profiles"] as? [[String: Any]])?.first { $0["name"] as? String == name }
  }
}

extension StatusLoginFlowsEndToEndTests {
  final class Harness: ServerHarness {
    init(_ name: String) throws {
      try super.init("status-flows-\(name)", sharedServer: try StatusLoginFlowsEndToEndTests.shared.get()) { url in
        Self.config(url: url)
      }
      try reset()
    }

    /// `default`: discovery, both flows. `noAuthorize`: both flows, endpoints given without an authorization
    /// endpoint. `local`: the password only.
    static func config(url: String) -> String {
      #"""
      {"profiles": {
        "default": {"provider": "oauth2", "oauth2": {"issuer": "\#(url)/o", "clientId": "sidecar-device"}},
        "noAuthorize": {"provider": "oauth2", "oauth2": {
          "issuer": "\#(url)/o", "clientId": "sidecar-device", "scopes": ["read"],
          "endpoints": {"token": "\#(url)/o/token/", "deviceAuthorization": "\#(url)/o/device-authorization/"}}},
        "local": {"provider": "local"}
      }}
      """#
    }
  }
}
