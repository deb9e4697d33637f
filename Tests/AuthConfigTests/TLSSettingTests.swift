import AuthHTTP
import Foundation
import Testing

@testable import AuthConfig

/// A remote profile's `tls` object: a readable absolute CA bundle path and pins in libcurl's format, checked at
/// load; refused on the local provider, which talks no TLS.
@Suite struct TLSSettingTests {
  static let pin = "sha256//" + String(repeating: "A", count: 43) + "="

  static func rest(tls: String) -> String {
    RESTProviderSettingTests.rest().replacingOccurrences(
      of: #""provider": "rest","#, with: #""provider": "rest", "tls": {\#(tls)},"#)
  }

  @Test func aReadableCAFileAndPinsAreKept() throws {
    try withTemporaryDirectory { directory in
      let ca = try directory.write("ca.pem", "-----BEGIN CERTIFICATE-----\n")
      let pins = "\(Self.pin);\(Self.pin)"
      let config = try ConfigFixtures.parse(Self.rest(tls: #""caFile": "\#(ca)", "pinnedPublicKey": "\#(pins)""#))
      let tls = try #require(config.profile("default")).tls
      #expect(tls == TLSSettings(caFile: ca, pinnedPublicKey: pins))
    }
    #expect(try ConfigFixtures.parse(RESTProviderSettingTests.rest()).profile("default")?.tls == TLSSettings())
  }

  @Test func badSettingsAreRefusedAtLoad() {
    let path = "profiles.default.tls"
    ConfigFixtures.expectInvalidSetting(Self.rest(tls: #""caFile": "ca.pem""#), path: path + ".caFile")
    ConfigFixtures.expectInvalidSetting(Self.rest(tls: #""caFile": "/nonexistent/ca.pem""#), path: path + ".caFile")
    for pin in ["sha256//short=", "sha1//" + String(repeating: "A", count: 43) + "=", Self.pin + ";", ""] {
      ConfigFixtures.expectInvalidSetting(
        Self.rest(tls: #""pinnedPublicKey": "\#(pin)""#), path: path + ".pinnedPublicKey")
    }
    ConfigFixtures.expectInvalidSetting(Self.rest(tls: #""other": 1"#), path: path + ".other")
    ConfigFixtures.expectInvalidSetting(
      ConfigFixtures.local(#""tls": {"pinnedPublicKey": "\#(Self.pin)"}"#), path: path)
  }
}
