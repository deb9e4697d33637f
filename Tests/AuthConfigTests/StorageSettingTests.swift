import AuthStorage
import Testing

@testable import AuthConfig

/// The top-level `storage` object: where the store key is kept, and how long a keyring call may wait.
@Suite struct StorageSettingTests {
  private static func config(_ storage: String) throws(ConfigError) -> SidecarConfig {
    try ConfigFixtures.parse(#"{"profiles": {"default": {"provider": "local"}}, "storage": \#(storage)}"#)
  }

  @Test func defaultsToAutoWithAThirtySecondKeyringWait() throws {
    let config = try ConfigFixtures.parse(ConfigFixtures.fullExample)
    #expect(config.storage == StorageConfig(keySource: nil, keyringTimeoutSeconds: 30))
    #expect(try Self.config(#"{"keySource": "auto"}"#).storage.keySource == nil)
  }

  @Test(arguments: [("env", KeySource.environment), ("file", .file), ("keyring", .keyring)])
  func namesEachSource(name: String, source: KeySource) throws {
    let storage = try Self.config(#"{"keySource": "\#(name)", "keyringTimeoutSeconds": 5}"#).storage
    #expect(storage == StorageConfig(keySource: source, keyringTimeoutSeconds: 5))
  }

  @Test func refusesAnUnknownSourceAWaitOutOfRangeAndUnknownKeys() {
    let source = ConfigFixtures.error(
      #"{"profiles": {"default": {"provider": "local"}}, "storage": {"keySource": "plaintext"}}"#)
    #expect(source?.jsonPath == "storage.keySource")
    #expect(source?.message == #"must be "auto", "env", "keyring" or "file""#)
    let wait = ConfigFixtures.error(
      #"{"profiles": {"default": {"provider": "local"}}, "storage": {"keyringTimeoutSeconds": 0}}"#)
    #expect(wait?.jsonPath == "storage.keyringTimeoutSeconds")
    let unknown = ConfigFixtures.error(
      #"{"profiles": {"default": {"provider": "local"}}, "storage": {"allowPlaintext": true}}"#)
    #expect(unknown?.message == "unknown key; expected one of keySource, keyringTimeoutSeconds")
  }
}
