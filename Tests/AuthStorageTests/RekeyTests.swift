import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

/// `Rekey` with an in-memory keyring: both ways, and interrupted at every step (the end-to-end test kills the real
/// binary with the real Secret Service in Tests/Python/test_keyring.py).
@Suite struct RekeyTests {
  private struct Interrupted: Error {}

  private func seeded(_ parent: String, _ keyring: MemoryKeyring, on source: KeySource) throws -> StateDirectory {
    let environment = source == .environment ? testEnvironment : [:]
    let store = try Store(
      explicitStateDirectory: parent + "/state", environment: environment,
      selection: KeySelection(setting: source, keyring: keyring))
    try store.write {
      try $0.putSecret(SecretBytes(Array("signing key".utf8)), named: "jwt")
      try $0.putSecret(SecretBytes(Array("second".utf8)), named: "other")
    }
    return store.directory
  }

  /// Opens under `auto` and reads both secrets back.
  private func readBack(_ parent: String, _ keyring: MemoryKeyring, environment: [String: String] = [:]) throws
    -> KeySource
  {
    let store = try Store(
      explicitStateDirectory: parent + "/state", environment: environment,
      selection: KeySelection(keyring: keyring))
    let secret = try store.read { try $0.secret(named: "jwt") }
    #expect(secret?.withUnsafeBytes { Array($0) } == Array("signing key".utf8))
    #expect(try store.read { try $0.secret(named: "other") } != nil)
    return store.protectionLevel
  }

  @Test func movesBetweenTheKeyFileAndTheKeyringBothWays() throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      let directory = try seeded(parent, keyring, on: .file)
      _ = try Rekey.run(directory: directory, to: .keyring, environment: [:], keyring: keyring)
      #expect(!exists(parent + "/state/store.key"))
      #expect(try readBack(parent, keyring) == .keyring)
      _ = try Rekey.run(directory: directory, to: .file, environment: [:], keyring: keyring)
      #expect(!keyring.holdsKey(for: directory.path))
      #expect(try readBack(parent, keyring) == .file)
    }
  }

  @Test func movesToAndFromTheEnvironment() throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      let directory = try seeded(parent, keyring, on: .keyring)
      _ = try Rekey.run(directory: directory, to: .environment, environment: testEnvironment, keyring: keyring)
      #expect(!keyring.holdsKey(for: directory.path))
      #expect(try readBack(parent, keyring, environment: testEnvironment) == .environment)
      _ = try Rekey.run(directory: directory, to: .file, environment: testEnvironment, keyring: keyring)
      #expect(try readBack(parent, keyring) == .file)
    }
  }

  /// Stopped at each step in each direction: the store opens with one of the two keys and every secret reads back,
  /// and running the same rekey again finishes it.
  @Test(arguments: Rekey.Step.allCases, [KeySource.file, .keyring])
  func anInterruptedRekeyLeavesAStoreThatOpens(step: Rekey.Step, from source: KeySource) throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      let directory = try seeded(parent, keyring, on: source)
      let target: KeySource = source == .file ? .keyring : .file
      #expect(throws: Interrupted.self) {
        try Rekey.run(directory: directory, to: target, environment: [:], keyring: keyring) { reached in
          if reached == step { throw Interrupted() }
        }
      }
      let after = try readBack(parent, keyring)
      #expect(after == (step == .committed ? target : source))
      _ = try Rekey.run(directory: directory, to: target, environment: [:], keyring: keyring)
      #expect(try readBack(parent, keyring) == target)
      #expect(exists(parent + "/state/store.key") == (target == .file))
      #expect(keyring.holdsKey(for: directory.path) == (target == .keyring))
    }
  }

  @Test func refusesWhileTheStoreIsOpenAndAStoreWaitsForIt() throws {
    try withTemporaryDirectory { parent in
      let keyring = MemoryKeyring()
      let directory = try seeded(parent, keyring, on: .file)
      var open: Store? = try Store(
        explicitStateDirectory: parent + "/state", environment: [:], selection: KeySelection(keyring: keyring))
      var refusal: StorageError?
      do { _ = try Rekey.run(directory: directory, to: .keyring, environment: [:], keyring: keyring) } catch {
        refusal = error as? StorageError
      }
      #expect(refusal?.message.contains("open in another auth-sidecar process") == true)
      #expect(!keyring.holdsKey(for: directory.path))
      #expect(open != nil)
      open = nil
      // While a rekey holds the store, opening it waits (here: gives up at once).
      let exclusive = try StoreInUse.exclusive(directory)
      #expect(throws: StorageError.self) { try StoreInUse.shared(directory, timeout: .zero) }
      withExtendedLifetime(exclusive) {}
    }
  }

  @Test func sealedColumnsCoverEveryBlobColumnOfTheSchema() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      var notes: [String] = []
      let (connection, _) = try DatabaseFile.open(in: store.directory, notes: &notes)
      let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) }
      var blobs: Set<String> = []
      for table in tables {
        let columns = try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(table)]) {
          ($0.text(0), $0.text(1))
        }
        for (name, type) in columns where type == "BLOB" { blobs.insert("\(table).\(name)") }
      }
      let sealed = Set(SealedColumns.all.map { "\($0.table).\($0.column)" })
      #expect(blobs == sealed.union(SealedColumns.notSealed))
    }
  }
}
