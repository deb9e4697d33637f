import Foundation
import Testing

/// An `oauth2` profile naming a login flow this build does not know stops the sidecar at start-up with a config
/// error (exit 78, `EX_CONFIG`) that names the setting: the flow is never silently dropped on the way to the
/// provider. No server is needed: the sidecar stops before it would reach one.
@Suite struct LoginFlowConfigEndToEndTests {
  static func config(flows: String) -> String {
    #"""
    {"profiles": {"default": {"provider": "oauth2", "oauth2": {"issuer": "http://127.0.0.1:9/o",
      "clientId": "app", "flows": [\#(flows)]}}}}
    """#
  }

  @Test(arguments: ["browser", "password", "Device"])
  func anUnknownFlowIsAConfigErrorNamingItsPath(flow: String) throws {
    let fixture = try StateFixture("login-flow-config")
    defer { fixture.remove() }
    let (status, stderr) = try fixture.run(config: Self.config(flows: #""device", "\#(flow)""#))
    #expect(status == 78)
    #expect(stderr.contains("profiles.default.oauth2.flows"), "stderr: \(stderr)")
    #expect(stderr.contains(#"each flow must be one of "device", "authorizationCode""#), "stderr: \(stderr)")
  }

  /// The same profile with known flows starts and serves (so the refusal above is about the flow alone).
  @Test func knownFlowsStart() throws {
    let fixture = try StateFixture("login-flow-config")
    defer { fixture.remove() }
    let (status, stderr) = try fixture.run(config: Self.config(flows: #""device", "authorizationCode""#))
    #expect(status == 0, "stderr: \(stderr)")
  }
}
