import AuthCrypto
import Foundation
import Synchronization
import Testing

@testable import AuthStorage

/// A fixed test key (64 hex digits), so most tests skip key-file creation.
let testKeyHex = String(repeating: "5a", count: 32)
let testEnvironment = ["AUTH_SIDECAR_KEY": testKeyHex]

/// Runs `body` with a fresh directory under $TMPDIR (Foundation reads it, so the test command's private directory
/// holds it), removed afterwards whatever happens.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
  let path = try makeTemporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
  let path = try makeTemporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}

private func makeTemporaryDirectory() throws -> String {
  var template = Array((FileManager.default.temporaryDirectory.path + "/auth-storage-tests-XXXXXX").utf8CString)
  return try template.withUnsafeMutableBufferPointer { buffer -> String in
    guard let made = mkdtemp(buffer.baseAddress!) else { throw POSIXError(.EIO) }
    return String(cString: made)
  }
}

/// The state directory `<parent>/state`, created by the code under test.
func openStore(_ parent: String, environment: [String: String] = testEnvironment) throws -> Store {
  try Store(explicitStateDirectory: parent + "/state", environment: environment, selection: noKeyring)
}

/// The umask is process-wide; tests that change it take this lock so they restore it in order.
let umaskLock = Mutex(())

func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
  try umaskLock.withLock { _ in
    let previous = umask(mask)
    defer { umask(previous) }
    return try body()
  }
}

func mode(_ path: String) -> mode_t? {
  var status = stat()
  return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
}

func exists(_ path: String) -> Bool { mode(path) != nil }

func contents(_ path: String) -> [UInt8] {
  (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) } ?? []
}

func directoryEntries(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// Runs `body` and returns the `StorageError` it threw; records an issue if it threw something else or nothing.
@discardableResult
func storageError<T>(
  _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> StorageError? {
  do {
    _ = try body()
    Issue.record("expected a StorageError, got success", sourceLocation: sourceLocation)
  } catch let error as StorageError {
    return error
  } catch {
    Issue.record("expected a StorageError, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

func secret(_ text: String) -> SecretBytes { SecretBytes(Array(text.utf8)) }

func text(_ secret: SecretBytes?) -> String? {
  secret.map { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

func sampleSession(_ profile: String = "default", token: String = "access-1", at time: Int64 = 1_700_000_000)
  -> SessionRecord
{
  SessionRecord(
    profile: profile, userJSON: Array(#"{"id":"u1","username":"alice"}"#.utf8), accessToken: secret(token),
    refreshToken: secret("refresh-of-\(token)"), idToken: secret("id-of-\(token)"), tokenType: "Bearer",
    expiresAt: time + 900, scopes: ["openid", "profile"], providerState: Array("cookies".utf8), updatedAt: time)
}

func sampleAccount(_ id: String, username: String, email: String? = nil, phone: String? = nil) -> AccountRecord {
  AccountRecord(
    id: id, username: username, email: email, phone: phone, displayName: "User \(id)",
    passwordHash: "$scrypt$ln=17,r=8,p=1$c2FsdA$aGFzaA", createdAt: 1_700_000_000)
}

/// Sets `PRAGMA user_version` (or other raw SQL) behind the store's back, as a newer build or an attacker would.
func rawExecute(_ databasePath: String, _ sql: String) throws {
  let connection = try SQLiteConnection(path: databasePath)
  defer { connection.close(checkpoint: true) }
  try connection.execute(sql)
}

/// Runs `body` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    Thread {
      body(index)
      group.leave()
    }.start()
  }
  group.wait()
}

/// Replaces `path` with `bytes` and sets `mode`.
func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) {
  unlink(path)
  _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  chmod(path, mode)
}
