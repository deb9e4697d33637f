import Glibc

/// The process environment, reduced to what config resolution reads.
package enum ConfigEnvironment {
  /// The variables in ``ConfigLocation/environmentVariables`` that are set, read with `getenv`.
  ///
  /// Only these few are copied: the loader needs no others, and a dictionary of the whole environment would
  /// carry unrelated secrets (`AUTH_SIDECAR_KEY`, tokens of other tools) through more code than necessary.
  package static func current() -> [String: String] {
    var environment: [String: String] = [:]
    for name in ConfigLocation.environmentVariables {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return environment
  }
}
