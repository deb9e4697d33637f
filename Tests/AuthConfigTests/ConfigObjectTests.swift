import AuthJSON
import Testing

@testable import AuthConfig

/// The typed accessors every decoder shares.
@Suite struct ConfigObjectTests {
  static func object(_ members: JSONObject) throws -> ConfigObject {
    try ConfigObject(.object(members), at: JSONPath.root.appending("x"), allowedKeys: nil)
  }

  @Test func boolsAreReadOrAbsent() throws {
    let object = try Self.object(["on": .bool(true), "off": .bool(false)])
    #expect(try object.bool("on") == true)
    #expect(try object.bool("off") == false)
    #expect(try object.bool("missing") == nil)
  }

  @Test(arguments: [
    (JSONValue.string("true"), "a string"), (.number(JSONNumber(1)), "a number"), (.null, "null"),
    (.array([]), "an array"),
  ])
  func aNonBooleanNamesItsTypeNotItsValue(value: JSONValue, type: String) throws {
    let object = try Self.object(["flag": value])
    let path = JSONPath.root.appending("x").appending("flag")
    #expect(throws: SettingError(path, "must be true or false, not \(type)")) {
      try object.bool("flag")
    }
  }

  /// The rest and oauth2 decoders read their flags through the same accessor, so they refuse alike.
  @Test func theRESTAndOAuth2FlagsGiveTheSameMessage() {
    let rest = ConfigFixtures.error(
      RESTProviderSettingTests.rest(
        #""logout": {"path": "/o", "body": {"r": "{refreshToken}"}, "sendAccessToken": "yes"}"#))
    let oauth2 = ConfigFixtures.error(OAuth2ProviderSettingTests.oauth2(
      OAuth2ProviderSettingTests.minimal + #", "allowPasswordGrant": "yes""#))
    #expect(rest?.message == "must be true or false, not a string")
    #expect(oauth2?.message == rest?.message)
  }
}
