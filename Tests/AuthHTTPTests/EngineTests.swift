import AuthHTTP
import Foundation
import Testing

@testable import AuthHTTP

extension LiveServerTests {
  @Suite struct EngineTests {
    /// CPU time of the thread that runs libcurl, in clock ticks, from /proc (utime + stime).
    static func engineTicks() throws -> Int {
      let engine = try CurlEngine.shared.get()
      let tid = engine.threadID.load(ordering: .acquiring)
      let stat = try String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8)
      let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
      // After the name: state is field 3, utime 14 and stime 15 of stat(5).
      return try #require(Int(fields[11])) + #require(Int(fields[12]))
    }

    /// The waiting costs nothing: libcurl's poll loop sleeps on the socket while the server stalls. (URLSession's
    /// glue spun on the writable socket of a new connection: 3 s of CPU for a 3 s stall.)
    @Test func aRequestStalledAtTheServerOnANewConnectionCostsAlmostNoCPU() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(connect: .seconds(10), total: .seconds(20)), log: .disabled)
      // Loads libcurl and starts the thread, on another server: the measured request opens a new connection.
      let warm = try await FixtureServer.start()
      _ = try await client.send(HTTPRequest(url: warm.url("/json")))
      warm.stop()
      let before = try Self.engineTicks()
      let (response, elapsed) = try await measure {
        try await client.send(HTTPRequest(method: .post, url: server.url("/stall?seconds=3"), body: []))
      }
      let spent = Double(try Self.engineTicks() - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
      #expect(response.status == 200)
      #expect(elapsed >= .seconds(3), "the stall did not happen: \(elapsed)")
      #expect(spent < 0.05, "the HTTP thread used \(spent) s of CPU during a 3 s stall")
    }

    /// The thread shows under its own name in `ps -L`, `top -H` and `perf`, not under the name of the thread that
    /// happened to start it.
    @Test func theHTTPThreadIsNamed() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      _ = try await CurlHTTPClient(log: .disabled).send(HTTPRequest(url: server.url("/json")))
      let tid = try CurlEngine.shared.get().threadID.load(ordering: .acquiring)
      let name = try String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)
      #expect(name == CurlEngine.threadName + "\n")
    }

    @Test func aMachineWithoutLibcurlGetsAnErrorNamingItAndTheFix() {
      guard case .failure(let error) = LibCurl.open(sonames: ["libcurl-absent-for-test.so.9"]) else {
        Issue.record("a library that does not exist was opened")
        return
      }
      #expect(error.code == .transportUnavailable)
      #expect(error.detail.contains("libcurl") && error.detail.contains("apt-get install libcurl4"))
    }
  }
}
