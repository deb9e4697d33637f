import Foundation
import Testing

@testable import AuthStorage

@Suite struct AccountTests {
  @Test func insertFindListUpdateDelete() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let alice = sampleAccount("a1", username: "Alice", email: "alice@example.com", phone: "+8613800138000")
      let bob = sampleAccount("b1", username: "bob")
      try store.write { tx in
        try tx.insertAccount(alice)
        try tx.insertAccount(bob)
      }
      try store.read { tx throws in
        #expect(try tx.account(id: "a1") == alice)
        #expect(try tx.account(username: "alice") == alice)
        #expect(try tx.account(username: "ALICE") == alice)
        #expect(try tx.account(email: "Alice@Example.COM") == alice)
        #expect(try tx.account(phone: "+8613800138000") == alice)
        #expect(try tx.account(phone: "8613800138000") == nil)
        #expect(try tx.account(id: "nobody") == nil)
        #expect(try tx.accounts().map(\.id).sorted() == ["a1", "b1"])
      }
      var changed = alice
      changed.disabled = true
      changed.email = nil
      try store.write { try $0.updateAccount(changed) }
      #expect(try store.read { try $0.account(id: "a1") } == changed)
      #expect(try store.write { try $0.deleteAccount(id: "a1") })
      #expect(try store.write { try $0.deleteAccount(id: "a1") } == false)
      #expect(try store.read { try $0.accounts() } == [bob])
    }
  }

  @Test(
    arguments: [
      ("ALICE", nil, nil, "username"),
      ("carol", "ALICE@example.com", nil, "email"),
      ("carol", nil, "+8613800138000", "phone"),
    ] as [(String, String?, String?, String)])
  func uniqueColumnsClashCaseInsensitively(username: String, email: String?, phone: String?, field: String) throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write {
        try $0.insertAccount(
          sampleAccount("a1", username: "alice", email: "alice@example.com", phone: "+8613800138000"))
      }
      let clash = sampleAccount("a2", username: username, email: email, phone: phone)
      let error = storageError { try store.write { try $0.insertAccount(clash) } }
      #expect(error?.code == .alreadyExists)
      #expect(error?.field == field)
      // The message names the column, never the value that clashed.
      for value in [username, email, phone].compactMap({ $0 }) where value != "carol" {
        #expect(error?.message.contains(value) == false)
      }
      #expect(try store.read { try $0.accounts().count } == 1)
    }
  }

  @Test func duplicateIDAndUpdateClashes() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { tx in
        try tx.insertAccount(sampleAccount("a1", username: "alice"))
        try tx.insertAccount(sampleAccount("b1", username: "bob"))
      }
      let duplicate = storageError { try store.write { try $0.insertAccount(sampleAccount("a1", username: "x")) } }
      #expect(duplicate?.code == .alreadyExists && duplicate?.field == "id")
      let rename = storageError { try store.write { try $0.updateAccount(sampleAccount("b1", username: "Alice")) } }
      #expect(rename?.code == .alreadyExists && rename?.field == "username")
      let missing = storageError { try store.write { try $0.updateAccount(sampleAccount("zz", username: "zz")) } }
      #expect(missing?.code == .notFound)
    }
  }

  @Test func aClashInsideAWriteLeavesTheTransactionUsable() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { tx in
        try tx.insertAccount(sampleAccount("a1", username: "alice"))
        #expect(throws: StorageError.self) { try tx.insertAccount(sampleAccount("a2", username: "ALICE")) }
        try tx.insertAccount(sampleAccount("a2", username: "alice2"))
      }
      #expect(try store.read { try $0.accounts().count } == 2)
    }
  }
}
