import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

/// A full disk without privileges: the write runs in a child process whose RLIMIT_FSIZE is one page, with
/// SIGXFSZ ignored, so SQLite's WAL append fails with a short write / EFBIG exactly where a full disk would fail
/// it (SQLite reports SQLITE_FULL or SQLITE_IOERR_WRITE). A child process because the limit is process-wide and
/// other tests keep writing files.
@Suite struct FullDiskTests {
  static let childVariable = "AUTH_STORAGE_TEST_FULL_DISK_DIR"
  static let unavailable: Int32 = 40

  @Test func aFullDiskIsUnavailableAndLeavesTheStoreIntact() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(token: "before")) }

      let child = try ChildProcess(
        test: "AuthStorageTests.FullDiskTests/fullDiskChild", environment: [Self.childVariable: parent])
      let result = child.wait()
      #expect(result.status == Self.unavailable, "\(result.stderr)")

      // The failed write changed nothing, and the next write succeeds with no repair.
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "before")
      try store.write { try $0.putSecret(secret("after"), named: "n") }
      #expect(text(try openStore(parent).read { try $0.secret(named: "n") }) == "after")
    }
  }

  /// Does nothing unless started by the test above.
  @Test func fullDiskChild() throws {
    guard let parent = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
    let store: Store
    do { store = try openStore(parent) } catch { exitChild(2, "open failed: \(error)") }
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: 4096, rlim_max: rlim_t.max)
    setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
    do {
      try store.write { try $0.putSecret(SecretBytes(Array(repeating: 7, count: 256 * 1024)), named: "big") }
      exitChild(3, "the write succeeded past RLIMIT_FSIZE")
    } catch let error as StorageError where error.code == .unavailable {
      exitChild(Self.unavailable, "\(error)")
    } catch {
      exitChild(4, "\(error)")
    }
  }
}
