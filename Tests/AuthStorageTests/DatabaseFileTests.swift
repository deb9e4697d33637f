import Foundation
import Synchronization
import Testing

@testable import AuthStorage

@Suite struct DatabaseFileTests {
  @Test func everyFileIsPrivateEvenUnderUmask000() throws {
    try withTemporaryDirectory { parent in
      try withUmask(0) {
        let store = try openStore(parent + "/nested", environment: [:])
        try store.write { try $0.beginSession(sampleSession()) }
        try store.profileLocks.withLockBlocking("default") {}
        let state = store.directory.path
        #expect(mode(state) == 0o700)
        for name in ["store.sqlite3", "store.sqlite3-wal", "store.sqlite3-shm", "store.key"] {
          #expect(mode(state + "/" + name) == 0o600, "\(name)")
        }
        #expect(mode(state + "/locks") == 0o700)
        let lock = store.profileLocks.path(for: "default")
        #expect(mode(lock) == 0o600)
      }
    }
  }

  @Test func tightensALooseDatabaseFile() throws {
    try withTemporaryDirectory { parent in
      _ = try openStore(parent)
      chmod(parent + "/state/store.sqlite3", 0o644)
      let store = try openStore(parent)
      #expect(mode(parent + "/state/store.sqlite3") == 0o600)
      #expect(store.notes.contains { $0.contains("0644") })
    }
  }

  @Test func migratesAnEmptyStoreToTheLatestVersion() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let (version, tables) = try store.read { tx in
        (
          try Migrations.version(of: tx.db),
          try tx.db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.text(0) }
        )
      }
      #expect(version == Migrations.latest)
      #expect(
        tables == [
          "accounts", "authenticators", "challenges", "code_sends", "codes", "key_check", "login_throttle", "profiles",
          "recovery_codes", "refresh_tokens", "secrets", "sessions",
        ])
      let journal = try store.read { try $0.db.row("PRAGMA journal_mode") { $0.text(0) } }
      let sync = try store.read { try $0.db.row("PRAGMA synchronous") { $0.integer(0) } }
      let foreignKeys = try store.read { try $0.db.row("PRAGMA foreign_keys") { $0.integer(0) } }
      #expect(journal == "wal" && sync == 2 && foreignKeys == 1)
      // Opening again finds the schema current and leaves it alone.
      _ = try openStore(parent)
    }
  }

  @Test func refusesASchemaNewerThanTheCode() throws {
    try withTemporaryDirectory { parent in
      let database = try openStore(parent).databasePath
      try rawExecute(database, "PRAGMA user_version = \(Migrations.latest + 1)")
      let error = storageError { try openStore(parent) }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("newer") == true)
      #expect(exists(database))
      #expect(!directoryEntries(parent + "/state").contains { $0.contains("corrupt") })
    }
  }

  @Test func refusesASymlinkedDatabase() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let database = store.databasePath
      writeFile(parent + "/target", Array("not to be touched".utf8))
      unlink(database)
      symlink(parent + "/target", database)
      let error = storageError { try openStore(parent) }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("symlink") == true)
      #expect(contents(parent + "/target") == Array("not to be touched".utf8))
    }
  }

  @Test func refusesADatabaseOwnedBySomeoneElse() throws {
    try withTemporaryDirectory { parent in
      let database = try openStore(parent).databasePath
      guard chown(database, 12345, 12345) == 0 else { return }
      let error = storageError { try openStore(parent) }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("12345") == true)
    }
  }

  @Test func aGarbageFileIsMovedAsideAndTheNextOpenStartsFresh() throws {
    try withTemporaryDirectory { parent in
      let state = try StateDirectory(path: parent + "/state").path
      let garbage = Array(repeating: Array("this is not a database. ".utf8), count: 200).flatMap { $0 }
      writeFile(state + "/store.sqlite3", garbage)
      let error = storageError { try openStore(parent) }
      #expect(error?.code == .corrupt)
      let moved = try #require(error?.quarantinedPath)
      #expect(moved.hasPrefix(state + "/store.sqlite3.corrupt-"))
      #expect(contents(moved) == garbage)
      #expect(mode(moved) == 0o600)
      #expect(!exists(state + "/store.sqlite3"))

      let store = try openStore(parent)
      try store.write { try $0.putSecret(secret("fresh"), named: "n") }
      #expect(text(try store.read { try $0.secret(named: "n") }) == "fresh")
    }
  }

  @Test func aTruncatedDatabaseIsReportedCorruptAndMovedAside() throws {
    try withTemporaryDirectory { parent in
      do {
        let store = try openStore(parent)
        try store.write { tx in
          for index in 0..<300 {
            try tx.insertAccount(sampleAccount("id-\(index)", username: "user\(index)", email: "u\(index)@example.com"))
          }
        }
      }  // closing checkpoints the WAL into the main file
      let database = parent + "/state/store.sqlite3"
      let full = contents(database)
      try #require(full.count > 8192)
      truncate(database, off_t(full.count / 2))
      unlink(database + "-wal")
      unlink(database + "-shm")

      let error = storageError {
        let store = try openStore(parent)
        return try store.read { try $0.accounts().count }
      }
      #expect(error?.code == .corrupt)
      #expect(error?.quarantinedPath.map(exists) == true)
      #expect(!exists(database))
      let store = try openStore(parent)
      #expect(try store.read { try $0.accounts() }.isEmpty)
    }
  }

  @Test func damageFoundMidUseIsQuarantinedAndTheSameStoreCarriesOn() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { tx in
        for index in 0..<300 { try tx.insertAccount(sampleAccount("id-\(index)", username: "user\(index)")) }
      }
      let database = store.databasePath
      try rawExecute(database, "PRAGMA wal_checkpoint(TRUNCATE)")
      // Scribble over every page after the first, as a failing disk might.
      let size = contents(database).count
      let handle = try #require(FileHandle(forWritingAtPath: database))
      handle.seek(toFileOffset: 4096)
      handle.write(Data(repeating: 0xA5, count: size - 4096))
      try handle.close()

      let error = storageError { try store.read { try $0.accounts().count } }
      #expect(error?.code == .corrupt)
      #expect(error?.quarantinedPath != nil)
      // The same Store reopens a fresh database on its next transaction.
      #expect(try store.read { try $0.accounts() }.isEmpty)
      try store.write { try $0.insertAccount(sampleAccount("new", username: "new")) }
      #expect(try store.read { try $0.account(id: "new") }?.username == "new")
    }
  }

  @Test func aWrongKeyIsCorruptButMovesNothing() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession()) }
      try store.write { try $0.putSecret(secret("signing"), named: "jwt") }
      let before = directoryEntries(parent + "/state")

      // Refused when opened (the store's key check), not on the first sealed value it meets.
      let error = storageError {
        try openStore(parent, environment: ["AUTH_SIDECAR_KEY": String(repeating: "01", count: 32)])
      }
      #expect(error?.code == .corrupt)
      #expect(error?.quarantinedPath == nil)
      #expect(error?.message.contains("AUTH_SIDECAR_KEY") == true)
      #expect(directoryEntries(parent + "/state") == before)
      // The right key still works.
      #expect(text(try openStore(parent).read { try $0.session(profile: "default") }?.accessToken) == "access-1")
    }
  }

  @Test func eightWritersAtOnceNeverSeeALockError() throws {
    try withTemporaryDirectory { parent in
      // No store yet: the eight also race to create the directory, the database and its schema.
      let failures = Mutex<[String]>([])
      onThreads(8) { worker in
        do {
          // One Store each: separate connections lock exactly like separate processes.
          let store = try openStore(parent)
          for round in 0..<15 {
            try store.write { tx in
              let current = try tx.db.row("SELECT value FROM secrets WHERE name = 'counter'") { $0.blob(0) }
              let next = (current.map { Int(String(decoding: $0, as: UTF8.self)) ?? 0 } ?? 0) + 1
              try tx.db.run(
                "INSERT OR REPLACE INTO secrets (name, value) VALUES ('counter', ?)", [.blob(Array("\(next)".utf8))])
              try tx.insertAccount(sampleAccount("w\(worker)-\(round)", username: "w\(worker)r\(round)"))
            }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [])
      let store = try openStore(parent)
      #expect(try store.read { try $0.accounts().count } == 120)
      let counter = try store.read { try $0.db.row("SELECT value FROM secrets WHERE name = 'counter'") { $0.blob(0) } }
      #expect(counter.map { String(decoding: $0, as: UTF8.self) } == "120")
    }
  }
}
