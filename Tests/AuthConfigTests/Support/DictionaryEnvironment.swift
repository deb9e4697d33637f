@testable import AuthConfig

// The tests give an environment as a dictionary; the sidecar reads its own with getenv, one variable at a time.

extension ConfigLoader {
  static func load(explicitPath: String?, environment: [String: String]) throws(ConfigError) -> SidecarConfig {
    try load(explicitPath: explicitPath) { environment[$0] }
  }
}

extension ConfigLocation {
  static func resolve(explicitPath: String?, environment: [String: String]) -> ConfigLocation? {
    resolve(explicitPath: explicitPath) { environment[$0] }
  }
}
