import Testing

@testable import AuthStorage

/// Usernames and emails are unique and found by one canonical form: NFC plus Unicode case folding.
@Suite struct IdentifierKeyTests {
  static let precomposed = "jos\u{E9}"
  static let decomposed = "jose\u{301}"

  @Test func theKeyJoinsCanonicalAndCaseVariants() {
    let (one, other) = (IdentifierKey.of(Self.precomposed), IdentifierKey.of(Self.decomposed))
    #expect(one.unicodeScalars.elementsEqual(other.unicodeScalars))
    #expect(IdentifierKey.of("Ärger") == IdentifierKey.of("ärger"))
    #expect(IdentifierKey.of("STRASSE") == IdentifierKey.of("straße"))
    #expect(IdentifierKey.of("ΣΊΣΥΦΟΣ") == IdentifierKey.of("σίσυφος"))
    #expect(IdentifierKey.of("Alice") == "alice")
    #expect(IdentifierKey.of("alice") != IdentifierKey.of("alice2"))
  }

  @Test(arguments: [
    ("jos\u{E9}", "jose\u{301}"), ("Ärger", "ärger"), ("A\u{308}rger", "ärger"), ("ALICE", "alice"),
  ])
  func aVisuallyIdenticalUsernameCannotRegisterTwiceAndFindsTheAccount(first: String, second: String) throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.insertAccount(sampleAccount("a1", username: first, email: "\(first)@example.com")) }
      let clash = #expect(throws: StorageError.self) {
        try store.write { try $0.insertAccount(sampleAccount("a2", username: second)) }
      }
      #expect(clash?.code == .alreadyExists)
      #expect(clash?.field == "username")
      let emailClash = #expect(throws: StorageError.self) {
        try store.write {
          try $0.insertAccount(sampleAccount("a3", username: "other", email: "\(second)@EXAMPLE.com"))
        }
      }
      #expect(emailClash?.field == "email")
      #expect(try store.read { try $0.account(username: second) }?.id == "a1")
      #expect(try store.read { try $0.account(email: "\(second)@example.com") }?.id == "a1")
    }
  }

  /// A store from before the keys may already hold both spellings: both stay reachable by their own spelling, the
  /// older one also by every variant, and nothing new can take the key.
  @Test func migratingKeepsAccountsThatAlreadyClash() throws {
    try withTemporaryDirectory { parent in
      let database = parent + "/state/store.sqlite3"
      _ = try openStore(parent)
      try rawExecute(database, KeyCheckTests.backToVersion1)
      try rawExecute(
        database,
        """
        INSERT INTO accounts (id, username, password_hash, created_at) VALUES ('older', '\(Self.precomposed)', 'h', 1);
        INSERT INTO accounts (id, username, password_hash, created_at) VALUES ('younger', '\(Self.decomposed)', 'h', 2);
        INSERT INTO login_throttle VALUES (x'01', 5, 1700000001, 1700000000);
        """)
      let store = try openStore(parent)
      #expect(try store.read { try $0.account(username: Self.precomposed) }?.id == "older")
      #expect(try store.read { try $0.account(username: Self.decomposed) }?.id == "younger")
      #expect(try store.read { try $0.account(username: "JOS\u{C9}") }?.id == "older")
      #expect(throws: StorageError.self) {
        try store.write { try $0.insertAccount(sampleAccount("new", username: "JOSE\u{301}")) }
      }
      // Block times moved to milliseconds.
      #expect(try store.read { try $0.loginThrottle(identifierHash: [1]) }?.blockedUntil == 1_700_000_001_000)
    }
  }
}
