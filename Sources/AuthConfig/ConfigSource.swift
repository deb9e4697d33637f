/// Where a ``SidecarConfig`` came from.
package enum ConfigSource: Sendable, Equatable, CustomStringConvertible {
  /// No file was found at the default locations.
  case builtInDefault
  /// A file, by the path it was opened with.
  case file(String)

  package var description: String {
    switch self {
    case .builtInDefault: "built-in defaults"
    case .file(let path): path
    }
  }
}
