import Foundation
import Testing

@testable import AuthConfig

/// Loading through the file system: which file wins, and what a missing or unreadable one means.
@Suite struct ConfigLoaderTests {
  /// A valid config whose only distinguishing mark is `rememberAccountDays`, to tell files apart.
  static func marked(_ days: Int) -> String { ConfigFixtures.local(#""rememberAccountDays": \#(days)"#) }

  /// Writes one marked config at each of the four places and returns the environment naming them.
  static func fourFiles(in directory: TemporaryDirectory) throws -> (flag: String, environment: [String: String]) {
    let flag = try directory.write("flag.json", marked(1))
    let variable = try directory.write("env.json", marked(2))
    try directory.write("xdg/auth-sidecar/config.json", marked(3))
    try directory.write("home/.config/auth-sidecar/config.json", marked(4))
    let environment = [
      "AUTH_SIDECAR_CONFIG": variable, "XDG_CONFIG_HOME": directory.path + "/xdg", "HOME": directory.path + "/home",
    ]
    return (flag, environment)
  }

  static func days(_ config: SidecarConfig) -> Int? { config.profile("default")?.rememberAccountDays }

  @Test func resolutionOrderWithRealFiles() throws {
    try withTemporaryDirectory { directory in
      var (flag, environment) = try Self.fourFiles(in: directory)
      #expect(Self.days(try ConfigLoader.load(explicitPath: flag, environment: environment)) == 1)
      #expect(Self.days(try ConfigLoader.load(explicitPath: nil, environment: environment)) == 2)
      environment["AUTH_SIDECAR_CONFIG"] = nil
      #expect(Self.days(try ConfigLoader.load(explicitPath: nil, environment: environment)) == 3)
      environment["XDG_CONFIG_HOME"] = nil
      #expect(Self.days(try ConfigLoader.load(explicitPath: nil, environment: environment)) == 4)
    }
  }

  @Test func aLoadedFileIsTheSource() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.write("c.json", ConfigFixtures.fullExample)
      let config = try ConfigLoader.load(explicitPath: path, environment: [:])
      #expect(config.source == .file(path))
    }
  }

  @Test func aMissingFlagFileIsAnError() throws {
    try withTemporaryDirectory { directory in
      let path = directory.path + "/nope.json"
      let error = #expect(throws: ConfigError.self) {
        try ConfigLoader.load(explicitPath: path, environment: ["HOME": directory.path])
      }
      #expect(error?.kind == .fileNotFound)
      #expect(error?.description == "\(path): file not found (named by --config)")
    }
  }

  @Test func aMissingVariableFileIsAnError() throws {
    try withTemporaryDirectory { directory in
      let path = directory.path + "/nope.json"
      let error = #expect(throws: ConfigError.self) {
        try ConfigLoader.load(explicitPath: nil, environment: ["AUTH_SIDECAR_CONFIG": path])
      }
      #expect(error?.kind == .fileNotFound)
      #expect(error?.description == "\(path): file not found (named by AUTH_SIDECAR_CONFIG)")
    }
  }

  @Test func anEmptyFlagIsAnError() {
    let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(explicitPath: "", environment: [:]) }
    #expect(error?.description == "--config: the path is empty")
  }

  @Test func aMissingDefaultFileMeansTheBuiltInDefault() throws {
    try withTemporaryDirectory { directory in
      let config = try ConfigLoader.load(explicitPath: nil, environment: ["HOME": directory.path])
      #expect(config.source == .builtInDefault)
      #expect(config.profileNames == ["default"])
    }
  }

  @Test func aSetXDGConfigHomeIsTheOnlyDefaultLocation() throws {
    try withTemporaryDirectory { directory in
      try directory.write("home/.config/auth-sidecar/config.json", Self.marked(4))
      let environment = ["XDG_CONFIG_HOME": directory.path + "/xdg", "HOME": directory.path + "/home"]
      #expect(try ConfigLoader.load(explicitPath: nil, environment: environment).source == .builtInDefault)
    }
  }

  @Test func noHomeAtAllMeansTheBuiltInDefault() throws {
    #expect(try ConfigLoader.load(explicitPath: nil, environment: [:]).source == .builtInDefault)
  }

  @Test func aFileWhereADirectoryShouldBeMeansNoConfig() throws {
    try withTemporaryDirectory { directory in
      try directory.write("home/.config", "not a directory")
      let config = try ConfigLoader.load(explicitPath: nil, environment: ["HOME": directory.path + "/home"])
      #expect(config.source == .builtInDefault)
    }
  }

  @Test func aBadFileAtTheDefaultLocationIsStillAnError() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.write("xdg/auth-sidecar/config.json", "{")
      let error = #expect(throws: ConfigError.self) {
        try ConfigLoader.load(explicitPath: nil, environment: ["XDG_CONFIG_HOME": directory.path + "/xdg"])
      }
      #expect(error?.kind == .invalidJSON)
      #expect(error?.file == path)
    }
  }

  @Test func aDirectoryIsUnreadableEvenAtTheDefaultLocation() throws {
    try withTemporaryDirectory { directory in
      let path = directory.path + "/xdg/auth-sidecar/config.json"
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      let error = #expect(throws: ConfigError.self) {
        try ConfigLoader.load(explicitPath: nil, environment: ["XDG_CONFIG_HOME": directory.path + "/xdg"])
      }
      #expect(error?.kind == .unreadable)
      #expect(error?.description == "\(path): is a directory, not a file")
    }
  }

  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    try withTemporaryDirectory { directory in
      let path = directory.path + "/fifo.json"
      #expect(mkfifo(path, 0o600) == 0)
      let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(explicitPath: path, environment: [:]) }
      #expect(error?.kind == .unreadable)
      #expect(error?.message == "is not a regular file")
    }
  }

  @Test(.enabled(if: geteuid() != 0, "root reads files whatever their mode"))
  func aFileWithoutReadPermissionIsUnreadable() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.write("c.json", ConfigFixtures.fullExample)
      #expect(chmod(path, 0o200) == 0)
      let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(explicitPath: path, environment: [:]) }
      #expect(error?.kind == .unreadable)
      #expect(error?.message.hasPrefix("cannot open the file: ") == true)
    }
  }

  @Test func aSymlinkedConfigIsFollowed() throws {
    try withTemporaryDirectory { directory in
      let target = try directory.write("dotfiles/config.json", Self.marked(9))
      let link = directory.path + "/link.json"
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
      #expect(Self.days(try ConfigLoader.load(explicitPath: link, environment: [:])) == 9)
    }
  }

  @Test func aFileOverOneMebibyteIsRefused() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.write(
        "big.json", Self.padded(ConfigFixtures.fullExample, to: ConfigLoader.maxFileBytes + 1))
      let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(explicitPath: path, environment: [:]) }
      #expect(error?.kind == .tooLarge)
      #expect(error?.description == "\(path): is larger than 1048576 bytes")
    }
  }

  @Test func aFileOfExactlyOneMebibyteIsAccepted() throws {
    try withTemporaryDirectory { directory in
      let path = try directory.write(
        "full.json", Self.padded(ConfigFixtures.fullExample, to: ConfigLoader.maxFileBytes))
      #expect(try ConfigLoader.load(explicitPath: path, environment: [:]).profileNames == ["default"])
    }
  }

  /// `text` followed by spaces up to `size` bytes: still the same JSON document.
  static func padded(_ text: String, to size: Int) -> String {
    text + String(repeating: " ", count: size - text.utf8.count)
  }
}
