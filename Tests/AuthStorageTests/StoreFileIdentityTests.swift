import Foundation
import Testing

@testable import AuthStorage

/// Before each transaction a store checks that its path still names the file it has open: another process may have
/// moved it aside (a quarantine) or someone deleted the state directory.
@Suite struct StoreFileIdentityTests {
  @Test func aStoreFileMovedAsideByAnotherProcessIsNoticed() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.insertAccount(sampleAccount("old", username: "old")) }
      // What another process's quarantine does: the file and its companions renamed, a fresh store at the path.
      let path = store.databasePath
      #expect(rename(path, path + ".aside") == 0)
      for suffix in DatabaseFile.companions { rename(path + suffix, path + ".aside" + suffix) }
      let other = try openStore(parent)
      try other.write { try $0.insertAccount(sampleAccount("new", username: "new")) }

      #expect(try store.read { try $0.account(id: "old") } == nil)
      #expect(try store.read { try $0.account(id: "new") }?.username == "new")
    }
  }

  @Test func aStateDirectoryDeletedAndMadeAgainIsNoticed() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.insertAccount(sampleAccount("old", username: "old")) }
      try FileManager.default.removeItem(atPath: parent + "/state")
      let other = try openStore(parent)
      try other.write { try $0.insertAccount(sampleAccount("new", username: "new")) }

      #expect(try store.read { try $0.account(id: "new") }?.username == "new")
      // Both now use the new file: a write of one is the other's to read.
      try store.write { try $0.insertAccount(sampleAccount("again", username: "again")) }
      #expect(try other.read { try $0.account(id: "again") }?.username == "again")
      #expect(try store.read { try $0.account(id: "old") } == nil)
    }
  }
}
