import AuthCrypto
import AuthStorage
import CSQLite
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// Helpers for the storage-bar suites (crash safety, multi-process refresh and writes, secret
// hygiene). They talk to the real binary over real pipes, like `SidecarProcess` and
// `SidecarSession`, but take an explicit environment, drain stderr so a trace-level run cannot
// block on a full pipe, read with a timeout so a hung sidecar fails the test instead of hanging
// it, and can `kill -9` the process.

/// A private temporary root for one test: the state dir, an empty config home (so no user config
/// is picked up) and an empty working directory for the sidecar.
struct StateFixture {
  let root: String
  var stateDirectory: String { root + "/state" }
  var workingDirectory: String { root + "/cwd" }
  var databasePath: String { stateDirectory + "/store.sqlite3" }

  /// The test-mode options every storage-bar run uses: cheap password hashing.
  static let cheapKDF = ["--test-kdf-iterations", "1000"]

  init(_ name: String) throws {
    // Under $TMPDIR (Foundation reads it), so the test command's private directory holds it and removes it.
    var template = Array((FileManager.default.temporaryDirectory.path + "/auth-bars-\(name)-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw FixtureError("mkdtemp failed: errno \(errno)") }
    root = String(cString: made)
    for sub in ["cwd", "config", "xdg-state"] {
      try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
    }
  }

  /// The inherited environment without any AUTH_SIDECAR_* setting, pointed at this fixture.
  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AUTH_SIDECAR_") }
    environment["AUTH_SIDECAR_TEST_MODE"] = "1"
    environment["AUTH_SIDECAR_STATE_DIR"] = stateDirectory
    environment["XDG_CONFIG_HOME"] = root + "/config"
    environment["XDG_STATE_HOME"] = root + "/xdg-state"
    return environment
  }

  func remove() { try? FileManager.default.removeItem(atPath: root) }

  /// Every regular file under `directory` (recursively), with its bytes.
  static func files(under directory: String) -> [(path: String, bytes: Data)] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var found: [(String, Data)] = []
    for case let relative as String in walker {
      let path = directory + "/" + relative
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      if let bytes = FileManager.default.contents(atPath: path) { found.append((path, bytes)) }
    }
    return found
  }
}

struct FixtureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A running sidecar (or `call` / `users` command) with its own environment.
final class LiveSidecar: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  private var buffered = Data()
  private var stderrDrain: ReadAll?
  private var inputClosed = false

  /// - Parameter captureStderr: keep stderr (drained on a thread) for `stderrText()`; otherwise it
  ///   goes to /dev/null.
  init(
    _ arguments: [String], environment: [String: String], workingDirectory: String? = nil, captureStderr: Bool = false
  )
    throws
  {
    _ = ignoreSIGPIPE
    process.executableURL = SidecarProcess.binaryURL
    process.arguments = arguments
    process.environment = environment
    if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = captureStderr ? errors : FileHandle.nullDevice
    try process.run()
    if captureStderr { stderrDrain = ReadAll(errors.fileHandleForReading) }
  }

  var pid: Int32 { process.processIdentifier }

  /// Writes bytes to stdin with write(2): a dead reader gives EPIPE (ignored), never a trap.
  @discardableResult
  func write(_ data: Data) -> Bool {
    let fd = input.fileHandleForWriting.fileDescriptor
    return data.withUnsafeBytes { raw -> Bool in
      var offset = 0
      while offset < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += n
      }
      return true
    }
  }

  @discardableResult
  func send(_ line: String) -> Bool { write(Data((line + "\n").utf8)) }

  /// The next stdout line, or nil at EOF or after `timeout` seconds without one.
  func readLine(timeout: Double = 30) -> String? {
    let fd = output.fileHandleForReading.fileDescriptor
    let deadline = Date().addingTimeInterval(timeout)
    var chunk = [UInt8](repeating: 0, count: 65_536)
    // Only new bytes are searched for the newline, so a line of many megabytes costs one pass.
    var searched = 0
    while true {
      if let newline = buffered[(buffered.startIndex + searched)...].firstIndex(of: 0x0A) {
        let line = buffered[buffered.startIndex..<newline]
        buffered = Data(buffered[(newline + 1)...])
        return String(decoding: line, as: UTF8.self)
      }
      searched = buffered.count
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return nil }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
      if ready < 0, errno == EINTR { continue }
      if ready <= 0 { continue }
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
      if n < 0, errno == EINTR { continue }
      if n <= 0 { return nil }
      buffered.append(contentsOf: chunk[0..<n])
    }
  }

  /// The next answer (a message with an `id`), skipping notifications; nil at EOF or timeout.
  /// Notifications skipped on the way are appended to `notifications`.
  func readAnswer(timeout: Double = 30, notifications: inout [[String: Any]]) -> [String: Any]? {
    while let line = readLine(timeout: timeout) {
      let message = SidecarProcess.json(line)
      if message["id"] != nil { return message }
      notifications.append(message)
    }
    return nil
  }

  func readAnswer(timeout: Double = 30) -> [String: Any]? {
    var ignored: [[String: Any]] = []
    return readAnswer(timeout: timeout, notifications: &ignored)
  }

  /// Everything left on stdout until EOF.
  func readToEnd(timeout: Double = 60) -> [String] {
    var lines: [String] = []
    while let line = readLine(timeout: timeout) { lines.append(line) }
    return lines
  }

  func closeInput() {
    guard !inputClosed else { return }
    inputClosed = true
    try? input.fileHandleForWriting.close()
  }

  /// Closes this side's read end of the sidecar's stdout, as a host that stopped listening does.
  func closeOutput() { try? output.fileHandleForReading.close() }

  /// Waits up to `guardSeconds` (a hang guard, not a timing bound) for the process to exit on its own.
  func exitsWithin(guardSeconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(guardSeconds)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    return !process.isRunning
  }

  /// SIGKILL, then reap.
  func kill9() {
    kill(pid, SIGKILL)
    process.waitUntilExit()
    closeInput()
  }

  /// Closes stdin and waits; returns the exit status.
  func finish() -> Int32 {
    closeInput()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// All of stderr (only with `captureStderr`); waits for the process to close it.
  func stderrText() -> String { String(decoding: stderrDrain?.wait() ?? Data(), as: UTF8.self) }

  /// argv once the child has exec'd (read right after spawning, /proc may still show an empty or the
  /// parent's command line), or whatever it shows after `timeout` seconds.
  func commandLine(once expected: String, timeout: Double = 5) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var text = commandLine
    while !text.contains(expected), Date() < deadline {
      usleep(1_000)
      text = commandLine
    }
    return text
  }

  /// NUL-separated argv / environment of the running process, as text.
  var commandLine: String { Self.procFile(pid, "cmdline") }
  var environmentBlock: String { Self.procFile(pid, "environ") }

  private static func procFile(_ pid: Int32, _ name: String) -> String {
    let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/\(name)") ?? Data()
    return String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
  }
}

/// Set once per test process: a write to a killed sidecar's stdin must fail with EPIPE, not kill us.
private let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// `auth-sidecar call METHOD PARAMS`, run to completion. PARAMS travel on stdin (`-`), as a host
/// passing a password must do.
struct CallOutcome {
  var status: Int32
  /// The printed result (status 0) or error object (status 2).
  var json: [String: Any]
  var stdout: String
  var kind: String? { (json["data"] as? [String: Any])?["kind"] as? String }
}

enum SidecarCommand {
  static func call(
    _ method: String, _ params: [String: Any] = [:], fixture: StateFixture, options: [String] = StateFixture.cheapKDF
  ) throws -> CallOutcome {
    let live = try LiveSidecar(
      ["call", method, "-"] + options, environment: fixture.environment, workingDirectory: fixture.workingDirectory)
    live.write(Data(RPCLine.json(params).utf8))
    live.closeInput()
    let lines = live.readToEnd()
    let status = live.finish()
    return CallOutcome(
      status: status, json: SidecarProcess.json(lines.first ?? ""), stdout: lines.joined(separator: "\n"))
  }
}

/// JSON-RPC request lines built with JSONSerialization, so any string is escaped correctly.
enum RPCLine {
  static func line(_ id: Int, _ method: String, _ params: [String: Any] = [:]) -> String {
    json(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
  }

  static func json(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}

extension Dictionary where Key == String, Value == Any {
  var result: [String: Any]? { self["result"] as? [String: Any] }
  var errorKind: String? { ((self["error"] as? [String: Any])?["data"] as? [String: Any])?["kind"] as? String }
  var accessToken: String? { (result?["session"] as? [String: Any])?["accessToken"] as? String }
}

/// Direct looks at the store, from the test process.
enum StoreInspector {
  /// `PRAGMA integrity_check` on a connection of our own; "ok" when the file is sound.
  static func integrityCheck(_ path: String) -> String {
    var db: OpaquePointer?
    let opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil)
    defer { sqlite3_close_v2(db) }
    guard opened == SQLITE_OK else { return "cannot open: \(opened)" }
    sqlite3_busy_timeout(db, 10_000)
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
      return "cannot prepare: \(String(cString: sqlite3_errmsg(db)))"
    }
    defer { sqlite3_finalize(statement) }
    var rows: [String] = []
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_ROW {
        rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
      } else if step == SQLITE_DONE {
        break
      } else {
        return "step failed: \(String(cString: sqlite3_errmsg(db)))"
      }
    }
    return rows.joined(separator: "\n")
  }

  /// The profile's stored refresh token in clear (decrypted with the store key): the one secret that never
  /// leaves the sidecar, so the hygiene test fetches it here to grep for it everywhere else.
  static func refreshToken(stateDirectory: String, profile: String = "default") throws -> String? {
    let store = try Store(explicitStateDirectory: stateDirectory, environment: [:])
    let record = try store.read { try $0.session(profile: profile) }
    return record?.refreshToken?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}

/// A value shared between threads behind a lock (a class, so escaping closures can capture it).
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Wall time of a closure, in seconds.
func measure(_ body: () throws -> Void) rethrows -> Double {
  let start = Date()
  try body()
  return Date().timeIntervalSince(start)
}

/// The storage-bar suites (crash safety, multi-process refresh and writes, secret hygiene) each spawn many
/// sidecars; nested in this serialized suite they run one after another instead of fighting each other for
/// the CPU (and their timing-dependent figures stay meaningful).
@Suite(.serialized) enum StorageBarSuites {}
