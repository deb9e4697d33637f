import Testing

@testable import AuthConfig

@Suite struct ConfigLocationTests {
  static let everything = [
    "AUTH_SIDECAR_CONFIG": "/env/config.json", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/alice",
  ]

  @Test func theFlagWinsOverEverything() {
    let location = ConfigLocation.resolve(explicitPath: "flag.json", environment: Self.everything)
    #expect(location == ConfigLocation(path: "flag.json", origin: .flag))
  }

  @Test func theVariableWinsOverTheDefaultLocations() {
    let location = ConfigLocation.resolve(explicitPath: nil, environment: Self.everything)
    #expect(location == ConfigLocation(path: "/env/config.json", origin: .environment))
  }

  @Test func xdgConfigHomeWinsOverHome() {
    let location = ConfigLocation.resolve(explicitPath: nil, environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/h"])
    #expect(location == ConfigLocation(path: "/xdg/auth-sidecar/config.json", origin: .xdgConfigHome))
  }

  @Test func homeIsTheLastResort() {
    let location = ConfigLocation.resolve(explicitPath: nil, environment: ["HOME": "/home/alice"])
    #expect(location == ConfigLocation(path: "/home/alice/.config/auth-sidecar/config.json", origin: .home))
  }

  @Test func nothingToGoOnMeansNoLocation() {
    #expect(ConfigLocation.resolve(explicitPath: nil, environment: [:]) == nil)
  }

  @Test func emptyVariablesCountAsUnset() {
    let environment = ["AUTH_SIDECAR_CONFIG": "", "XDG_CONFIG_HOME": "", "HOME": "/h"]
    let location = ConfigLocation.resolve(explicitPath: nil, environment: environment)
    #expect(location == ConfigLocation(path: "/h/.config/auth-sidecar/config.json", origin: .home))
  }

  @Test func relativeDirectoriesAreIgnored() {
    let relativeXDG = ConfigLocation.resolve(explicitPath: nil, environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/h"])
    #expect(relativeXDG?.origin == .home)
    #expect(ConfigLocation.resolve(explicitPath: nil, environment: ["HOME": "home"]) == nil)
  }

  @Test func trailingSlashesAreDropped() {
    let location = ConfigLocation.resolve(explicitPath: nil, environment: ["XDG_CONFIG_HOME": "/xdg//"])
    #expect(location?.path == "/xdg/auth-sidecar/config.json")
    #expect(
      ConfigLocation.resolve(explicitPath: nil, environment: ["HOME": "/"])?.path
        == "/.config/auth-sidecar/config.json")
  }

  @Test func anEmptyFlagIsKeptForTheLoaderToReport() {
    #expect(ConfigLocation.resolve(explicitPath: "", environment: Self.everything)?.origin == .flag)
  }

  @Test(arguments: [
    (ConfigLocation.Origin.flag, true), (.environment, true), (.xdgConfigHome, false), (.home, false),
  ])
  func onlyNamedFilesAreExplicit(origin: ConfigLocation.Origin, explicit: Bool) {
    #expect(ConfigLocation(path: "/x", origin: origin).isExplicit == explicit)
  }
}
