import Foundation
import Testing

@testable import AuthStorage

/// The scrub after a login's answer leaves the emptied WAL with room for the next commits, and SQLite reads such a
/// WAL (frames, then zeros) back as it was committed, also when it has to recover it from the file alone.
@Suite struct WALPresizeTests {
  static func size(_ path: String) -> Int? {
    var status = stat()
    return lstat(path, &status) == 0 ? Int(status.st_size) : nil
  }

  static func integrity(_ databasePath: String) throws -> String? {
    let connection = try SQLiteConnection(path: databasePath)
    defer { connection.close(checkpoint: false) }
    return try connection.row("PRAGMA integrity_check") { $0.text(0) }
  }

  /// Copies the database and its WAL (not its shared-memory index) into `<parent>/state`, as a crash would leave
  /// them: opening the copy makes SQLite rebuild its index from the WAL file.
  static func copyWithoutIndex(_ databasePath: String, to parent: String) throws {
    let state = parent + "/state"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
    chmod(state, 0o700)
    for suffix in ["", "-wal"] {
      let target = state + "/" + DatabaseFile.name + suffix
      #expect(FileManager.default.createFile(atPath: target, contents: Data(contents(databasePath + suffix))))
      chmod(target, 0o600)
    }
  }

  @Test func aScrubLeavesTheWALPresizedAndTheStoreReadsBackWhatWasCommitted() throws {
    try withTemporaryDirectory { parent in
      let copy = parent + "/copy"
      try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
      do {
        let store = try openStore(parent)
        let wal = store.databasePath + "-wal"
        try store.write { try $0.beginSession(sampleSession(token: "alice-token")) }
        // Replacing the session removes secrets; as after a login's answer, the scrub runs on its own connection.
        try store.write(scrub: .afterReturning) { try $0.beginSession(sampleSession(token: "bob-token")) }
        #expect(store.scrubPendingSecrets())
        #expect(Self.size(wal) == WALPresize.bytes)
        #expect(mode(wal) == 0o600)
        #expect(try Self.integrity(store.databasePath) == "ok")
        #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")

        // A further commit lands inside the room the scrub left.
        try store.write { try $0.putSecret(secret("after"), named: "n") }
        #expect(Self.size(wal) == WALPresize.bytes)
        try Self.copyWithoutIndex(store.databasePath, to: copy)
      }
      let reopened = try openStore(parent)
      #expect(try Self.integrity(reopened.databasePath) == "ok")
      #expect(text(try reopened.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")
      #expect(text(try reopened.read { try $0.secret(named: "n") }) == "after")

      // The copy has only the files: SQLite recovers the frames and stops at the zeros.
      let recovered = try openStore(copy)
      #expect(text(try recovered.read { try $0.session(profile: "default") }?.accessToken) == "bob-token")
      #expect(text(try recovered.read { try $0.secret(named: "n") }) == "after")
      #expect(try Self.integrity(recovered.databasePath) == "ok")
    }
  }

  @Test func extendingAppendsZerosAndKeepsWhatTheFileHeld() throws {
    try withTemporaryDirectory { parent in
      let path = parent + "/file"
      let held: [UInt8] = Array(1...100)
      #expect(
        FileManager.default.createFile(atPath: path, contents: Data(held), attributes: [.posixPermissions: 0o600]))
      WALPresize.extend(path, to: 4096)
      let bytes = contents(path)
      #expect(bytes.count == 4096)
      #expect(Array(bytes[..<100]) == held)
      #expect(bytes[100...].allSatisfy { $0 == 0 })
      #expect(mode(path) == 0o600)
    }
  }

  @Test func aLongerFileIsLeftAsItIs() throws {
    try withTemporaryDirectory { parent in
      let path = parent + "/file"
      let held = [UInt8](repeating: 7, count: 5000)
      #expect(FileManager.default.createFile(atPath: path, contents: Data(held)))
      WALPresize.extend(path, to: 4096)
      #expect(contents(path) == held)
    }
  }

  @Test func aMissingFileIsNotCreatedAndASymlinkNotFollowed() throws {
    try withTemporaryDirectory { parent in
      WALPresize.extend(parent + "/missing", to: 4096)
      #expect(!exists(parent + "/missing"))
      let target = parent + "/target"
      #expect(FileManager.default.createFile(atPath: target, contents: Data([1])))
      #expect(symlink(target, parent + "/link") == 0)
      WALPresize.extend(parent + "/link", to: 4096)
      #expect(contents(target) == [1])
    }
  }
}
