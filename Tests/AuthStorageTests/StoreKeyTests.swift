import AuthCrypto
import Foundation
import Synchronization
import Testing

@testable import AuthStorage

@Suite struct StoreKeyTests {
  static let keyBytes: [UInt8] = (0..<32).map { UInt8($0 * 7 + 3) }

  @Test(arguments: [
    Hex.encode(keyBytes),
    Hex.encode(keyBytes).uppercased(),
    Base64.encode(keyBytes),
    String(Base64.encode(keyBytes).dropLast()),
    Base64URL.encode(keyBytes),
    Base64URL.encode(keyBytes) + "=",
    "  \(Hex.encode(keyBytes))\n",
  ])
  func acceptsEachEncodingOf32Bytes(_ value: String) throws {
    let key = try StoreKey.parse(environmentValue: value)
    #expect(key.constantTimeEquals(SecretBytes(Self.keyBytes)))
  }

  @Test(arguments: [
    "",
    "   ",
    String(Hex.encode(keyBytes).dropLast()),
    String(repeating: "g", count: 64),
    Base64.encode(Array(keyBytes.dropLast())),
    Base64.encode(keyBytes + [1]),
    "correct horse battery staple",
    Base64.encode(keyBytes) + "==",
  ])
  func rejectsAnythingElseAsConfigurationError(_ value: String) {
    let error = storageError { try StoreKey.parse(environmentValue: value) }
    #expect(error?.code == .invalidConfiguration)
    #expect(error?.message.contains("AUTH_SIDECAR_KEY") == true)
    if value.count > 8 { #expect(error?.message.contains(value) == false) }
  }

  @Test func environmentKeyWinsAndTouchesNoFile() throws {
    try withTemporaryDirectory { parent in
      let directory = try StateDirectory(path: parent + "/state")
      let key = try StoreKey(directory: directory, environment: testEnvironment, selection: noKeyring)
      #expect(key.source == .environment)
      #expect(key.source.rawValue == "env-key")
      #expect(!exists(directory.file("store.key")))
    }
  }

  @Test func keyFileIsCreatedOnceAndReused() throws {
    try withTemporaryDirectory { parent in
      let directory = try StateDirectory(path: parent + "/state")
      let first = try StoreKey(directory: directory, environment: [:], selection: noKeyring)
      let second = try StoreKey(directory: directory, environment: [:], selection: noKeyring)
      #expect(first.source == .file && first.source.rawValue == "key-file")
      #expect(first.secret.constantTimeEquals(second.secret))
      // The first also notes that no keyring answered, which is why it made a key file.
      #expect(first.notes.filter { $0.hasPrefix("created key file") }.count == 1 && second.notes.isEmpty)
      #expect(contents(directory.file("store.key")).count == 32)
      #expect(mode(directory.file("store.key")) == 0o600)
      // No temporary file is left behind.
      #expect(directoryEntries(directory.path) == ["store.key"])
    }
  }

  @Test func racingProcessesAgreeOnOneKeyFile() throws {
    try withTemporaryDirectory { parent in
      let directory = try StateDirectory(path: parent + "/state")
      let keys = Mutex<[[UInt8]]>([])
      let failures = Mutex<[String]>([])
      onThreads(8) { _ in
        do {
          let key = try StoreKey(directory: directory, environment: [:], selection: noKeyring)
          keys.withLock { $0.append(key.secret.withUnsafeBytes { Array($0) }) }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 }.isEmpty)
      let all = keys.withLock { $0 }
      #expect(all.count == 8)
      #expect(Set(all).count == 1)
      #expect(all.first == contents(directory.file("store.key")))
    }
  }

  @Test func twoStoresOpeningAtOnceShareTheKey() throws {
    try withTemporaryDirectory { parent in
      let stores = Mutex<[Store]>([])
      let failures = Mutex<[String]>([])
      onThreads(2) { _ in
        do {
          let store = try openStore(parent, environment: [:])
          stores.withLock { $0.append(store) }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [])
      let both = stores.withLock { $0 }
      try #require(both.count == 2)
      try both[0].write { try $0.putSecret(secret("shared"), named: "k") }
      #expect(text(try both[1].read { try $0.secret(named: "k") }) == "shared")
    }
  }

  @Test func refusesAnUnsafeKeyFile() throws {
    try withTemporaryDirectory { parent in
      let directory = try StateDirectory(path: parent + "/state")
      let path = directory.file("store.key")
      let good = Self.keyBytes

      writeFile(parent + "/elsewhere", good)
      symlink(parent + "/elsewhere", path)
      #expect(
        storageError { try openKey(directory) }?.message.contains("symlink") == true)
      unlink(path)

      writeFile(path, good, mode: 0o644)
      #expect(storageError { try openKey(directory) }?.message.contains("0644") == true)
      #expect(mode(path) == 0o644)  // refused, not silently "fixed": it may have leaked

      writeFile(path, Array(good.dropLast()))
      #expect(
        storageError { try openKey(directory) }?.message.contains("31 bytes") == true)

      writeFile(path, good)
      if chown(path, 12345, 12345) == 0 {
        #expect(storageError { try openKey(directory) }?.message.contains("uid") == true)
      }
    }
  }
}

private func openKey(_ directory: StateDirectory) throws -> StoreKey {
  try StoreKey(directory: directory, environment: [:], selection: noKeyring)
}
