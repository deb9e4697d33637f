import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

@Suite struct SecretsTests {
  @Test func putGetReplaceDelete() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      #expect(try store.read { try $0.secret(named: "jwt") } == nil)
      try store.write { try $0.putSecret(secret("v1"), named: "jwt") }
      #expect(text(try store.read { try $0.secret(named: "jwt") }) == "v1")
      try store.write { try $0.putSecret(secret("v2"), named: "jwt") }
      #expect(text(try store.read { try $0.secret(named: "jwt") }) == "v2")
      #expect(try store.write { try $0.deleteSecret(named: "jwt") })
      #expect(try store.write { try $0.deleteSecret(named: "jwt") } == false)
      #expect(try store.read { try $0.secret(named: "jwt") } == nil)
    }
  }

  /// Every sealed column, written with a unique canary, must not appear in any byte of the files on disk.
  @Test func sealedValuesNeverReachTheDiskInTheClear() throws {
    try withTemporaryDirectory { parent in
      let canary = "CANARY-\(UUID().uuidString)"
      let store = try openStore(parent, environment: [:])
      try store.write { tx in
        try tx.beginSession(
          SessionRecord(
            profile: "default", userJSON: Array("{\"email\":\"\(canary)-user\"}".utf8),
            accessToken: secret("\(canary)-access"), refreshToken: secret("\(canary)-refresh"),
            idToken: secret("\(canary)-id"), expiresAt: 1, providerState: Array("\(canary)-cookie".utf8),
            updatedAt: 1),
          lastAccount: "\(canary)-account")
        try tx.putSecret(secret("\(canary)-signing-key"), named: "jwt")
      }
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "\(canary)-access")
      let needle = Array("CANARY-".utf8) + Array(canary.utf8.dropFirst(7).prefix(8))
      for name in directoryEntries(store.directory.path) where !name.hasPrefix("locks") {
        let bytes = contents(store.directory.file(name))
        // The login's checkpoint empties the WAL (see `clearSession`); the database then holds everything.
        #expect(!bytes.isEmpty || name.hasSuffix("-shm") || name.hasSuffix("-wal"), "\(name) is empty")
        #expect(!contains(bytes, needle), "\(name) holds a canary in the clear")
      }
    }
  }

  private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
      if Array(haystack[start..<start + needle.count]) == needle { return true }
    }
    return false
  }
}
