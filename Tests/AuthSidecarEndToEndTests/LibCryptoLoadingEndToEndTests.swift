import Foundation
import Testing

/// libcrypto is opened with dlopen on the first request that needs crypto (COpenSSL's libcrypto.c), not linked:
/// a host that only validates never maps it, and a machine without a usable one still validates while every
/// request that needs crypto answers `unsupported`.
@Suite(.serialized) struct LibCryptoLoadingEndToEndTests {
  /// Whether `pid` has a libcrypto mapped (by file name: a checkout's own path may contain "libcrypto").
  static func mapsLibcrypto(_ pid: Int32) -> Bool {
    let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
    return maps.contains("/libcrypto.so")
  }

  static func request(_ id: Int, _ method: String, _ params: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
  }

  static let register = #"{"username":"alice","password":"correct horse battery staple"}"#
  static let login = #"{"account":"alice","password":"correct horse battery staple"}"#

  @Test func aHostThatOnlyValidatesNeverMapsLibcryptoAndTheFirstLoginDoes() throws {
    let fixture = try StateFixture("libcrypto-dlopen")
    defer { fixture.remove() }
    let sidecar = try LiveSidecar(
      StateFixture.cheapKDF, environment: fixture.environment, workingDirectory: fixture.workingDirectory)
    #expect(sidecar.send(validateRequest(id: 1, username: "alice")))
    #expect(sidecar.readAnswer()?["result"] != nil)
    #expect(!Self.mapsLibcrypto(sidecar.pid), "libcrypto is mapped before any request needed it")
    #expect(sidecar.send(Self.request(2, "register", Self.register)))
    #expect(sidecar.readAnswer()?["result"] != nil)
    #expect(sidecar.send(Self.request(3, "login", Self.login)))
    #expect(sidecar.readAnswer()?["result"] != nil)
    #expect(sidecar.send(Self.request(4, "getUser", "{}")))
    #expect(sidecar.readAnswer()?["result"] != nil)
    #expect(Self.mapsLibcrypto(sidecar.pid), "no libcrypto after a login")
    #expect(sidecar.finish() == 0)
  }

  /// A "libcrypto.so.3" that is some other library (a copy of libm, found first through LD_LIBRARY_PATH) loads
  /// but lacks OpenSSL's functions: the requests that need crypto answer `unsupported`, the log says why, and the
  /// process keeps validating and exits cleanly.
  @Test func withoutAUsableLibcryptoCryptoRequestsAnswerUnsupportedAndValidateStillWorks() throws {
    let fixture = try StateFixture("libcrypto-missing")
    defer { fixture.remove() }
    let libraries = fixture.root + "/lib"
    try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
    // Read to the end: a procfs file has no size for String(contentsOfFile:) to go by.
    let mapsFile = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
    let maps = String(decoding: try mapsFile.readToEnd() ?? Data(), as: UTF8.self)
    let libm = try #require(
      maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        .first { $0.hasPrefix("/") && $0.contains("/libm.so") })
    try FileManager.default.copyItem(atPath: libm, toPath: libraries + "/libcrypto.so.3")
    var environment = fixture.environment
    environment["LD_LIBRARY_PATH"] = libraries
    let sidecar = try LiveSidecar(
      StateFixture.cheapKDF + ["--log-level", "debug"], environment: environment,
      workingDirectory: fixture.workingDirectory, captureStderr: true)
    #expect(sidecar.send(Self.request(1, "register", Self.register)))
    let answer = try #require(sidecar.readAnswer())
    let error = try #require(answer["error"] as? [String: Any], "\(answer)")
    let data = error["data"] as? [String: Any]
    #expect(data?["kind"] as? String == "unsupported")
    #expect(data?["reason"] as? String == "libcrypto_unavailable")
    #expect(sidecar.send(validateRequest(id: 2, username: "alice")))
    #expect(sidecar.readAnswer()?["result"] != nil, "the process stopped serving")
    #expect(sidecar.finish() == 0)
    #expect(sidecar.stderrText().contains("libcrypto.so.3 has no"))
  }
}
