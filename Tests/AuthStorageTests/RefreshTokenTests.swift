import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

@Suite struct RefreshTokenTests {
  func token(_ name: String, family: String, account: String = "a1", expiresAt: Int64 = 2_000_000_000)
    -> RefreshTokenRecord
  {
    RefreshTokenRecord(
      tokenHash: RefreshTokenRecord.hash(of: secret(name)), familyID: family, accountID: account, profile: "default",
      issuedAt: 1_700_000_000, expiresAt: expiresAt)
  }

  func withAccounts(_ body: (Store) throws -> Void) throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { tx in
        try tx.insertAccount(sampleAccount("a1", username: "alice"))
        try tx.insertAccount(sampleAccount("b1", username: "bob"))
      }
      try body(store)
    }
  }

  @Test func rotationMarksUsedOnceAndReuseRevokesTheFamily() throws {
    try withAccounts { store in
      let first = token("t1", family: "f1")
      try store.write { tx in
        try tx.insertRefreshToken(first)
        try tx.insertRefreshToken(token("other-family", family: "f2"))
      }
      #expect(first.tokenHash == SHA256.hash(Array("t1".utf8)))
      #expect(try store.read { try $0.refreshToken(hash: first.tokenHash) } == first)

      // Rotation: mark t1 used, issue t2 in the same family.
      #expect(try store.write { try $0.markRefreshTokenUsed(hash: first.tokenHash, at: 1_700_000_100) })
      try store.write { try $0.insertRefreshToken(token("t2", family: "f1")) }
      #expect(try store.read { try $0.refreshToken(hash: first.tokenHash) }?.usedAt == 1_700_000_100)

      // Reuse of t1: the compare-and-set refuses, and the caller revokes the family.
      #expect(try store.write { try $0.markRefreshTokenUsed(hash: first.tokenHash, at: 1_700_000_200) } == false)
      #expect(try store.write { try $0.revokeRefreshTokenFamily("f1") } == 2)
      #expect(try store.write { try $0.revokeRefreshTokenFamily("f1") } == 0)
      let t2 = token("t2", family: "f1").tokenHash
      #expect(try store.read { try $0.refreshToken(hash: t2) }?.revoked == true)
      #expect(try store.write { try $0.markRefreshTokenUsed(hash: t2, at: 1_700_000_300) } == false)
      #expect(
        try store.read { try $0.refreshToken(hash: token("other-family", family: "f2").tokenHash) }?.revoked == false)
      #expect(try store.write { try $0.markRefreshTokenUsed(hash: [1, 2, 3], at: 0) } == false)
    }
  }

  @Test func revokeByAccountDeleteSpentAndCascade() throws {
    try withAccounts { store in
      try store.write { tx in
        try tx.insertRefreshToken(token("a-1", family: "fa", expiresAt: 100))
        try tx.insertRefreshToken(token("a-2", family: "fa2"))
        try tx.insertRefreshToken(token("b-1", family: "fb", account: "b1"))
      }
      // Expired first, then revoked: both are spent; a live token of another account stays.
      #expect(try store.write { try $0.deleteSpentRefreshTokens(now: 100) } == 1)
      #expect(try store.read { try $0.refreshToken(hash: token("a-1", family: "fa").tokenHash) } == nil)
      #expect(try store.write { try $0.revokeRefreshTokens(accountID: "a1") } == 1)
      #expect(try store.write { try $0.deleteSpentRefreshTokens(now: 100) } == 1)
      #expect(try store.read { try $0.refreshToken(hash: token("a-2", family: "fa2").tokenHash) } == nil)
      #expect(try store.read { try $0.refreshToken(hash: token("b-1", family: "fb").tokenHash) } != nil)
      try store.write { try $0.deleteAccount(id: "b1") }
      #expect(try store.read { try $0.refreshToken(hash: token("b-1", family: "fb").tokenHash) } == nil)
    }
  }

  @Test func aTokenForAnUnknownAccountOrADuplicateIsRefused() throws {
    try withAccounts { store in
      let orphan = storageError {
        try store.write { try $0.insertRefreshToken(token("x", family: "f", account: "zz")) }
      }
      #expect(orphan?.code == .notFound)
      try store.write { try $0.insertRefreshToken(token("y", family: "f")) }
      let duplicate = storageError { try store.write { try $0.insertRefreshToken(token("y", family: "g")) } }
      #expect(duplicate?.code == .alreadyExists)
    }
  }
}
