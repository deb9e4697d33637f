import Foundation
import Testing

/// The HTTP transport as the real binary uses it: libcurl in process, loaded on the first remote request, and
/// asleep while a server stalls. Against the REST suite's Django server and config.
@Suite(.serialized) struct RemoteTransportEndToEndTests {
  typealias REST = RESTProviderEndToEndTests

  /// /proc/PID/<name>, read to the end (proc files report a size of 0).
  static func procFile(_ pid: Int32, _ name: String) -> String {
    let file = FileHandle(forReadingAtPath: "/proc/\(pid)/\(name)")
    defer { try? file?.close() }
    return String(decoding: (try? file?.readToEnd()) ?? Data(), as: UTF8.self)
  }

  /// utime + stime of the whole process, in seconds.
  static func cpuSeconds(_ pid: Int32) throws -> Double {
    let stat = procFile(pid, "stat")
    let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
    let ticks = try #require(Int(fields[11])) + #require(Int(fields[12]))
    return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Whether `pid` has a libcurl mapped (by file name: a checkout's own path may contain "libcurl").
  static func mapsLibcurl(_ pid: Int32) -> Bool {
    let maps = procFile(pid, "maps")
    return maps.contains("/libcurl.so") || maps.contains("/libcurl-gnutls.so")
  }

  /// A host that only validates never maps libcurl (nor its TLS and HTTP/2 libraries).
  @Test func libcurlIsLoadedOnlyByTheFirstRemoteRequest() throws {
    let harness = try REST.Harness("transport-dlopen")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    #expect(sidecar.call("validate", ["username": "alice"]).result != nil)
    #expect(!Self.mapsLibcurl(sidecar.live.pid), "libcurl is mapped before any request")
    #expect(sidecar.call("login", REST.alice).result != nil)
    #expect(Self.mapsLibcurl(sidecar.live.pid), "no libcurl after a remote login")
    _ = sidecar.finish()
  }

  /// The whole sidecar, not just its HTTP thread, stays asleep while the server holds the first request of a
  /// new connection for 3 s. (With URLSession on Linux the same wait cost 3 s of CPU: its glue kept polling the
  /// writable socket.)
  @Test func aLoginStalledAtTheServerOnANewConnectionCostsTheSidecarAlmostNoCPU() throws {
    let harness = try REST.Harness("transport-stall", timeoutSeconds: 10)
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    // Everything the first remote login costs counts: loading libcurl, its TLS setup, opening the store.
    try harness.fault(["path": "/api/token/", "method": "POST", "mode": "stall", "stall_seconds": 3])
    let before = try Self.cpuSeconds(sidecar.live.pid)
    let started = Date()
    let login = sidecar.call("login", REST.alice)
    let spent = try Self.cpuSeconds(sidecar.live.pid) - before
    #expect(login.result != nil, "login: \(login)")
    #expect(Date().timeIntervalSince(started) >= 3, "the stall did not happen")
    #expect(spent < 0.05, "the sidecar used \(spent) s of CPU during a 3 s stall")
    _ = sidecar.finish()
  }
}
