import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

/// How the key source is chosen and pinned, with an in-memory keyring (the real Secret Service is exercised end to
/// end in Tests/Python/test_keyring.py).
@Suite struct KeySourceTests {
  private func open(
    _ parent: String, _ keyring: MemoryKeyring, setting: KeySource? = nil, environment: [String: String] = [:]
  ) throws -> Store {
    try Store(
      explicitStateDirectory: parent + "/state", environment: environment,
      selection: KeySelection(setting: setting, keyring: keyring))
  }

  private func storageError(_ body: () throws -> Any) -> StorageError? {
    do { _ = try body() } catch let error as StorageError { return error } catch { return nil }
    return nil
  }

  @Test func autoKeepsANewStoreKeyInAReachableKeyringAndNoKeyFile() throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      let store = try open(parent, keyring)
      #expect(store.protectionLevel == .keyring)
      #expect(keyring.holdsKey(for: parent + "/state"))
      #expect(!exists(parent + "/state/store.key"))
      try store.write { try $0.putSecret(SecretBytes(Array("signing".utf8)), named: "jwt") }
      let again = try open(parent, keyring)
      let secret = try again.read { try $0.secret(named: "jwt") }
      #expect(secret?.withUnsafeBytes { Array($0) } == Array("signing".utf8))
    }
  }

  @Test func autoUsesTheKeyFileWhenNoKeyringAnswers() throws {
    try withTemporaryDirectory { parent in
      let store = try open(parent, MemoryKeyring(.unreachable))
      #expect(store.protectionLevel == .file)
      #expect(exists(parent + "/state/store.key"))
    }
  }

  @Test func aStoreOnTheKeyFileNeverAsksTheKeyring() throws {
    try withTemporaryDirectory { parent in
      _ = try open(parent, MemoryKeyring(.unreachable))
      let keyring = MemoryKeyring()
      #expect(try open(parent, keyring).protectionLevel == .file)
      #expect(keyring.calls.withLock { $0 }.isEmpty)
    }
  }

  @Test func aLockedKeyringIsUnavailableNotAFallback() throws {
    try withTemporaryDirectory { parent in
      for setting in [nil, KeySource.keyring] {
        let error = storageError { try open(parent, MemoryKeyring(.locked), setting: setting) }
        #expect(error?.code == .unavailable && error?.reason == "keyring_locked")
        #expect(!exists(parent + "/state/store.key"))
      }
    }
  }

  @Test func anExplicitKeyringThatCannotBeReachedIsAnErrorNamingWhy() throws {
    try withTemporaryDirectory { parent in
      let error = storageError { try open(parent, MemoryKeyring(.unreachable), setting: .keyring) }
      #expect(error?.code == .unavailable && error?.reason == "keyring_no_session")
      #expect(!exists(parent + "/state/store.key"))
    }
  }

  @Test func aRemovedItemIsCorruptAndTheDatabaseIsUntouched() throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      let store = try open(parent, keyring, setting: .keyring)
      try store.write { try $0.putSecret(SecretBytes([1, 2, 3]), named: "jwt") }
      _ = try keyring.remove(for: parent + "/state")
      let before = contents(parent + "/state/store.sqlite3")
      let error = storageError { try open(parent, keyring, setting: .keyring) }
      #expect(error?.code == .corrupt && error?.reason == "key_missing")
      #expect(!keyring.holdsKey(for: parent + "/state"))
      #expect(contents(parent + "/state/store.sqlite3") == before)
      #expect(directoryEntries(parent + "/state").allSatisfy { !$0.contains("corrupt") })
    }
  }

  @Test func aStoreIsPinnedToItsSource() throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      _ = try open(parent, keyring)
      let asFile = storageError { try open(parent, keyring, setting: .file) }
      #expect(asFile?.code == .invalidConfiguration && asFile?.reason == "key_source_changed")
      #expect(asFile?.message.contains("store rekey --to file") == true)
      let withEnvironment = storageError { try open(parent, keyring, environment: testEnvironment) }
      #expect(withEnvironment?.reason == "key_source_changed")
      #expect(!exists(parent + "/state/store.key"))
    }
  }

  @Test func explicitSourcesRefuseAKeyThatCannotBeThere() throws {
    try withTemporaryDirectory { parent in
      let noEnvironment = storageError { try open(parent, MemoryKeyring(), setting: .environment) }
      #expect(noEnvironment?.code == .invalidConfiguration && noEnvironment?.reason == "key_source_unavailable")
      let both = storageError { try open(parent, MemoryKeyring(), setting: .file, environment: testEnvironment) }
      #expect(both?.code == .invalidConfiguration && both?.reason == "key_source_conflict")
    }
  }
}
