import Testing

@testable import AuthConfig

/// One rule for profile names, in the config file and in requests (`Params.profile()` asks the same type).
@Suite struct ProfileNameTests {
  @Test(arguments: ["default", "work", "a", "A-b_c.9", String(repeating: "x", count: 64)])
  func validNames(name: String) {
    #expect(ProfileName(name)?.rawValue == name)
  }

  @Test(arguments: ["", String(repeating: "x", count: 65), "a b", "a/b", "é", "a:b", "a\n", "../x"])
  func invalidNames(name: String) {
    #expect(ProfileName(name) == nil)
  }

  @Test func theDefaultIsDefault() {
    #expect(ProfileName.default.rawValue == "default")
    #expect(SidecarConfig.builtInDefault.profileNames == ["default"])
  }

  @Test func theConfigRefusesAnInvalidNameAtItsPath() {
    ConfigFixtures.expectInvalidSetting(
      ConfigFixtures.profile(#""provider": "local""#, name: "a b"), path: #"profiles["a b"]"#,
      message: "is not a valid profile name: use 1 to 64 characters from A-Z a-z 0-9 _ . -")
  }
}
