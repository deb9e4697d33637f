import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What the process does to keep secrets out of other processes' reach: no core file, no crash backtrace with
/// request bytes, no store key left in its environment once read.
@Suite struct ProcessHardeningEndToEndTests {
  static let storeKey = String(repeating: "c3", count: 32)

  /// A running sidecar that has opened its store (so the key has been read), with stderr captured.
  static func startedSidecar(_ fixture: StateFixture, key: String? = storeKey) throws -> LiveSidecar {
    var environment = fixture.environment
    environment["AUTH_SIDECAR_KEY"] = key
    let sidecar = try LiveSidecar(
      StateFixture.cheapKDF, environment: environment, workingDirectory: fixture.workingDirectory,
      captureStderr: true)
    sidecar.send(RPCLine.line(1, "status"))
    let status = try #require(sidecar.readAnswer())
    let protection = (status.result?["storage"] as? [String: Any])?["protection"] as? String
    #expect(protection == (key == nil ? "key-file" : "env-key"))
    return sidecar
  }

  @Test func coreFilesAreOff() throws {
    let fixture = try StateFixture("core")
    defer { fixture.remove() }
    let sidecar = try Self.startedSidecar(fixture)
    let limits = (try? String(contentsOfFile: "/proc/\(sidecar.pid)/limits", encoding: .utf8)) ?? ""
    let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
    let fields = core.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) } ?? []
    // "Max core file size  <soft>  <hard>  bytes"
    #expect(fields.count >= 6 && fields[4] == "0" && fields[5] == "0", "\(core ?? "no core line")")
    #expect(sidecar.finish() == 0)
  }

  @Test func theStoreKeyLeavesTheEnvironmentOnceRead() throws {
    let fixture = try StateFixture("environ")
    defer { fixture.remove() }
    let sidecar = try Self.startedSidecar(fixture)
    let environ = sidecar.environmentBlock
    // Readable (we run the test as the same user or as root) and really the environment, or the
    // check below would prove nothing; a non-dumpable process shows it to root only.
    if getuid() == 0 { #expect(environ.contains("AUTH_SIDECAR_STATE_DIR=")) }
    #expect(!environ.contains(Self.storeKey))
    #expect(sidecar.finish() == 0)
    // Nor on disk: the key came from the environment, so no key file either.
    #expect(!FileManager.default.fileExists(atPath: fixture.stateDirectory + "/store.key"))
    for file in StateFixture.files(under: fixture.root) {
      #expect(!String(decoding: file.bytes, as: UTF8.self).contains(Self.storeKey), "\(file.path)")
    }
  }

  @Test func aCrashReportCarriesNoRequestBytes() throws {
    let fixture = try StateFixture("crash")
    defer { fixture.remove() }
    let sidecar = try Self.startedSidecar(fixture)
    let password = "crash-marker-\(UInt32.random(in: 0...UInt32.max))-password"
    sidecar.send(RPCLine.line(2, "register", ["username": "crashtest", "password": password]))
    #expect(sidecar.readAnswer()?.result != nil)
    kill(sidecar.pid, SIGSEGV)
    sidecar.process.waitUntilExit()
    let stderr = sidecar.stderrText()
    #expect(stderr.contains("auth-sidecar: fatal signal; no backtrace is printed"))
    #expect(!stderr.contains(password) && !stderr.contains("crash-marker"))
    #expect(sidecar.process.terminationReason == .uncaughtSignal)
  }
}
