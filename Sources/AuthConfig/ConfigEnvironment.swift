import Glibc

/// The process environment, as config resolution reads it.
package enum ConfigEnvironment {
  /// The value of `name`, read with `getenv` when it is asked for.
  ///
  /// No dictionary of the environment is built: start-up reads only the one to three variables config resolution
  /// needs, and a copy of the whole environment would carry unrelated secrets (`AUTH_SIDECAR_KEY`, tokens of other
  /// tools) through more code than necessary.
  package static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
