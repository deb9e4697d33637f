import Foundation
import Testing

@testable import AuthStorage

/// A symlink above the state directory (`/home → var/home`, as on Fedora Atomic) is an ordinary path; only the
/// state directory itself, the database and the key file are refused as symlinks.
@Suite struct SymlinkedAncestorTests {
  @Test(arguments: [[:], testEnvironment])
  func aStoreBelowASymlinkedAncestorWorks(environment: [String: String]) throws {
    try withTemporaryDirectory { parent in
      try FileManager.default.createDirectory(atPath: parent + "/var/home", withIntermediateDirectories: true)
      #expect(symlink("var/home", parent + "/home") == 0)
      let stateDirectory = parent + "/home/alice/.local/state/auth-sidecar"
      let store = try Store(explicitStateDirectory: stateDirectory, environment: environment)
      try store.write { try $0.beginSession(sampleSession()) }
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "access-1")
      // The files live under the real directory, and a second opener through the symlink finds the same store.
      #expect(contents(parent + "/var/home/alice/.local/state/auth-sidecar/store.sqlite3").count > 0)
      let again = try Store(explicitStateDirectory: stateDirectory, environment: environment)
      #expect(text(try again.read { try $0.session(profile: "default") }?.accessToken) == "access-1")
    }
  }

  @Test func theStateDirectoryItselfAsASymlinkIsStillRefused() throws {
    try withTemporaryDirectory { parent in
      try FileManager.default.createDirectory(atPath: parent + "/real", withIntermediateDirectories: true)
      #expect(symlink("real", parent + "/state") == 0)
      let error = storageError { try openStore(parent) }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("symlink") == true)
      #expect(directoryEntries(parent + "/real") == [])
    }
  }
}
