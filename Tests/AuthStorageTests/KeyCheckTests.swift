import Foundation
import Testing

@testable import AuthStorage

/// The store records how its key is protected and a value sealed under it, so a changed key source or a wrong
/// key is refused when the store is opened, before anything is written or a key file is created.
@Suite struct KeyCheckTests {
  static let otherKey = ["AUTH_SIDECAR_KEY": String(repeating: "01", count: 32)]

  @Test func anEnvKeyStoreRestartedWithoutTheKeyIsAConfigErrorAndCreatesNoKeyFile() throws {
    try withTemporaryDirectory { parent in
      try openStore(parent).write { try $0.beginSession(sampleSession()) }
      let before = directoryEntries(parent + "/state")
      let error = storageError { try openStore(parent, environment: [:]) }
      #expect(error?.code == .invalidConfiguration)
      #expect(error?.message.contains("created with AUTH_SIDECAR_KEY") == true)
      #expect(error?.reason == "key_source_changed")
      #expect(!exists(parent + "/state/store.key"))
      #expect(directoryEntries(parent + "/state") == before)
      #expect(text(try openStore(parent).read { try $0.session(profile: "default") }?.accessToken) == "access-1")
    }
  }

  @Test func aKeyFileStoreOpenedWithAnEnvKeyIsAConfigError() throws {
    try withTemporaryDirectory { parent in
      try openStore(parent, environment: [:]).write { try $0.beginSession(sampleSession()) }
      let error = storageError { try openStore(parent) }
      #expect(error?.code == .invalidConfiguration)
      #expect(error?.message.contains("key file store.key") == true)
      let store = try openStore(parent, environment: [:])
      #expect(store.protectionLevel == .file)
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "access-1")
    }
  }

  @Test func aWrongEnvKeyIsCorruptAtOpenAndWritesNothing() throws {
    try withTemporaryDirectory { parent in
      try openStore(parent).write { try $0.beginSession(sampleSession()) }
      let database = contents(parent + "/state/store.sqlite3") + contents(parent + "/state/store.sqlite3-wal")
      let error = storageError { try openStore(parent, environment: Self.otherKey) }
      #expect(error?.code == .corrupt)
      #expect(error?.quarantinedPath == nil)
      #expect(error?.message.contains("wrong key: AUTH_SIDECAR_KEY") == true)
      #expect(error?.reason == "wrong_key")
      #expect(contents(parent + "/state/store.sqlite3") + contents(parent + "/state/store.sqlite3-wal") == database)
    }
  }

  @Test func aMissingKeyFileIsCorruptAndIsNotRecreated() throws {
    try withTemporaryDirectory { parent in
      try openStore(parent, environment: [:]).write { try $0.beginSession(sampleSession()) }
      unlink(parent + "/state/store.key")
      let error = storageError { try openStore(parent, environment: [:]) }
      #expect(error?.code == .corrupt)
      #expect(error?.message.contains("which is missing") == true)
      #expect(error?.reason == "key_missing")
      #expect(!exists(parent + "/state/store.key"))
    }
  }

  /// Undoes versions 3 and 2 of the schema.
  static let backToVersion1 = """
    DROP TABLE codes; DROP TABLE code_sends; DROP TABLE challenges; DROP TABLE recovery_codes;
    DROP TABLE authenticators;
    DROP INDEX accounts_by_username_key; DROP INDEX accounts_by_email_key;
    ALTER TABLE accounts DROP COLUMN username_key; ALTER TABLE accounts DROP COLUMN email_key;
    DROP TABLE key_check; PRAGMA user_version = 1
    """

  @Test func aStoreFromBeforeTheRecordGetsItOnFirstOpenButNotUnderAChangedKey() throws {
    try withTemporaryDirectory { parent in
      try openStore(parent).write { try $0.beginSession(sampleSession()) }
      // As an older build left it: schema version 1, no record.
      let database = parent + "/state/store.sqlite3"
      try rawExecute(database, Self.backToVersion1)
      // Its sealed values show that this key is not the one: refused, and still no record.
      #expect(storageError { try openStore(parent, environment: Self.otherKey) }?.code == .corrupt)
      #expect(storageError { try openStore(parent, environment: [:]) }?.code == .corrupt)
      #expect(!exists(parent + "/state/store.key"))
      // The right key migrates it and is recorded: from now on a missing key is refused up front.
      #expect(text(try openStore(parent).read { try $0.session(profile: "default") }?.accessToken) == "access-1")
      #expect(storageError { try openStore(parent, environment: [:]) }?.code == .invalidConfiguration)
    }
  }
}
