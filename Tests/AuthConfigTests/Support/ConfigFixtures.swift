import Foundation
import Testing

@testable import AuthConfig

/// Shared helpers: parse config text, and build configs around the one setting a test is about.
enum ConfigFixtures {
  static let file = "/etc/auth-sidecar/test.json"
  static let source = ConfigSource.file(file)

  /// The example from the product docs, every key set.
  static let fullExample = """
    {
      "profiles": {
        "default": {
          "provider": "local",
          "validation": {"passwordPreset": "standard", "passwordMinLength": 8, "passwordMaxLength": 128,
                         "usernameMinLength": 3, "usernameMaxLength": 30, "usernamePattern": "^[a-z0-9_]+$"},
          "rememberAccountDays": 7,
          "refreshMarginSeconds": 60,
          "local": {"accessTokenTTLSeconds": 900, "refreshTokenTTLDays": 30}
        }
      }
    }
    """

  static func parse(_ text: String) throws(ConfigError) -> SidecarConfig {
    try ConfigLoader.parse(Array(text.utf8), source: source)
  }

  /// The error parsing `text` throws; a failed expectation when it parses.
  static func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConfigError? {
    do {
      _ = try parse(text)
      Issue.record("expected a ConfigError", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// A config whose only profile, `name`, has the members `body` (the text between the braces).
  static func profile(_ body: String, name: String = "default") -> String {
    #"{"profiles": {"\#(name)": {\#(body)}}}"#
  }

  /// A local-provider profile with the extra members `body`.
  static func local(_ body: String) -> String {
    body.isEmpty ? profile(#""provider": "local""#) : profile(#""provider": "local", \#(body)"#)
  }

  /// A local-provider profile with the `validation` members `body`.
  static func validation(_ body: String) -> String { local(#""validation": {\#(body)}"#) }

  /// A local-provider profile with the `local` members `body`.
  static func localSettings(_ body: String) -> String { local(#""local": {\#(body)}"#) }
}

/// A fresh directory under the system temp dir, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/auth-config-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `text` to `relativePath`, creating folders; returns the absolute path.
  @discardableResult
  func write(_ relativePath: String, _ text: String) throws -> String {
    try write(relativePath, Data(text.utf8))
  }

  @discardableResult
  func write(_ relativePath: String, _ data: Data) throws -> String {
    let file = path + "/" + relativePath
    let folder = (file as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: file))
    return file
  }

  func remove() {
    _ = try? FileManager.default.removeItem(atPath: path)
  }
}

/// Runs `body` with a temporary directory that is removed afterwards.
func withTemporaryDirectory(_ body: (TemporaryDirectory) throws -> Void) throws {
  let directory = try TemporaryDirectory()
  defer { directory.remove() }
  try body(directory)
}

extension ConfigFixtures {
  /// Expects `text` to be refused for the setting at `path` (and with `message`, when given).
  static func expectInvalidSetting(
    _ text: String, path: String, message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let error = Self.error(text, sourceLocation: sourceLocation)
    #expect(error?.kind == .invalidSetting, sourceLocation: sourceLocation)
    #expect(error?.jsonPath == path, sourceLocation: sourceLocation)
    if let message { #expect(error?.message == message, sourceLocation: sourceLocation) }
  }
}
