import AuthHTTP
import AuthSupport
import Foundation
import Testing

/// `WorkerHTTPClient` with the real `auth-sidecar-http` binary (built next to the test bundle) against the
/// Python fixture server.
extension LiveServerTests {
  @Suite struct WorkerClientTests {
    @Test func aRequestAndItsAnswerCrossTheWorkerIntact() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = WorkerHTTPClient(policy: .quick(), log: .disabled)
      let body = Array(UInt8.min...UInt8.max) + Array("\n\"\\".utf8)
      let response = try await client.send(
        HTTPRequest(
          method: .post, url: server.url("/echo?key=rt&x=%C3%A9"),
          headers: [
            HTTPHeader("Authorization", "Bearer t0k\u{E9}n"), HTTPHeader("X-Twice", "1"), HTTPHeader("X-Twice", "2"),
          ],
          body: body))
      #expect(response.status == 200)
      #expect(response.header("content-type") == "application/json")
      #expect(response.finalURL == server.url("/echo?key=rt&x=%C3%A9"))
      let echo = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
      #expect(echo["method"] as? String == "POST")
      #expect(echo["path"] as? String == "/echo?key=rt&x=%C3%A9")
      #expect(Data(base64Encoded: echo["body"] as? String ?? "").map(Array.init) == body)
      let headers = (echo["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }
      // Both values arrive; URLRequest's `addValue` joins a repeated field, in the worker as in process.
      #expect(headers.filter { $0.0 == "x-twice" }.map(\.1) == ["1,2"])

      // Redirects are followed in the worker when the request allows it.
      let redirected = try await client.send(
        HTTPRequest(url: server.url("/redirect?to=/json"), redirects: .followSameOrigin(max: 2)))
      #expect(redirected.status == 200)
      #expect(redirected.finalURL == server.url("/json"))
    }

    @Test func manyRequestsShareOneWorkerAndEachGetsItsOwnAnswer() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = WorkerHTTPClient(policy: .quick(), log: .disabled)
      #expect(client.workerProcessID == nil)
      let paths = try await withThrowingTaskGroup(of: (Int, String).self) { group in
        for index in 0..<24 {
          group.addTask {
            let response = try await client.send(HTTPRequest(url: server.url("/echo?key=n\(index)")))
            let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            return (index, echo?["path"] as? String ?? "")
          }
        }
        return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
      }
      #expect(paths.count == 24)
      #expect(paths.allSatisfy { $0.value == "/echo?key=n\($0.key)" })
      let pid = try #require(client.workerProcessID)
      _ = try await client.send(HTTPRequest(url: server.url("/json")))
      #expect(client.workerProcessID == pid)
    }

    @Test func badRequestsFailBeforeAnyWorkerStarts() async {
      let client = WorkerHTTPClient(log: .disabled)
      let insecure = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: "http://example.com/"))
      }
      let body = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: "https://example.com/", body: [1]))
      }
      let url = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: "https://user:pw@example.com/"))
      }
      #expect(insecure?.code == .insecureURL)
      #expect(body?.code == .invalidRequest)
      #expect(url?.code == .invalidURL)
      #expect(client.workerProcessID == nil)
    }

    @Test func aStallLongerThanTheTotalTimeoutTimesOutInTheWorker() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = WorkerHTTPClient(policy: .quick(connect: .seconds(5), total: .seconds(1)), log: .disabled)
      let (error, elapsed) = await measure {
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: server.url("/stall?seconds=4")))
        }
      }
      // The code says the total timeout fired before the 4 s stall ended; the bound only that it waited.
      #expect(error?.code == .timeout)
      #expect(elapsed >= .seconds(1), "took \(elapsed)")
    }

    @Test func cancellingTheTaskAnswersAtOnceAndStopsTheTransferInTheWorker() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let lines = LogLines()
      let client = WorkerHTTPClient(policy: .quick(), log: lines.logger)
      _ = try await client.send(HTTPRequest(url: server.url("/json")))
      let pid = client.workerProcessID
      let task = Task { () async -> HTTPError? in
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: server.url("/stall?seconds=4&key=cancel")))
        }
      }
      try await server.waitForRequest("cancel")
      let cancelled = ContinuousClock.now
      task.cancel()
      #expect(await task.value?.code == .cancelled)
      // Long before the server's 4 s stall ends (a hang guard, not a speed test).
      #expect(ContinuousClock.now - cancelled < .seconds(3))
      // The worker's own log says the transfer ended as cancelled, long before the server's 4 s.
      let deadline = ContinuousClock.now + .seconds(2)
      while !lines.all.contains(where: { $0.contains("/stall failed") && $0.contains("cancelled") }),
        ContinuousClock.now < deadline
      {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(lines.all.contains { $0.contains("/stall failed") && $0.contains("cancelled") })
      // Same worker, still serving.
      #expect(try await client.send(HTTPRequest(url: server.url("/json"))).status == 200)
      #expect(client.workerProcessID == pid)
    }

    @Test func a429IsRetriedInTheWorkerAfterItsRetryAfter() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = WorkerHTTPClient(policy: .quick(), log: .disabled)
      let (response, elapsed) = try await measure {
        try await client.send(HTTPRequest(method: .post, url: server.url("/retry-after?key=ra"), body: []))
      }
      #expect(response.status == 200)
      #expect(elapsed >= .seconds(1))
      #expect(try await server.count("ra") == 2)
    }

    @Test func aWorkerKilledMidRequestFailsItAsNetworkUnavailableThenIsReplaced() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = WorkerHTTPClient(policy: .quick(), log: .disabled)
      _ = try await client.send(HTTPRequest(url: server.url("/json")))
      let first = try #require(client.workerProcessID)
      let task = Task { () async -> HTTPError? in
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: server.url("/stall?seconds=3&key=killed")))
        }
      }
      try await server.waitForRequest("killed")
      let killed = ContinuousClock.now
      kill(first, SIGKILL)
      let error = await task.value
      #expect(error?.code == .networkUnavailable)
      let detail = error?.detail ?? ""
      #expect(detail.contains("HTTP worker (pid \(first)) was killed by signal 9"), "\(detail)")
      // Long before the 3 s stall ends (a hang guard, not a speed test).
      #expect(ContinuousClock.now - killed < .milliseconds(2500))
      #expect(client.workerProcessID == nil)
      // The next request starts a new worker.
      #expect(try await client.send(HTTPRequest(url: server.url("/json"))).status == 200)
      let second = try #require(client.workerProcessID)
      #expect(second != first)
    }

    @Test func aWorkerThatStopsAnsweringTimesOutAndIsReplaced() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = WorkerHTTPClient(policy: .quick(connect: .seconds(1), total: .seconds(1)), log: .disabled)
      _ = try await client.send(HTTPRequest(url: server.url("/json")))
      let frozen = try #require(client.workerProcessID)
      kill(frozen, SIGSTOP)
      let (error, elapsed) = await measure {
        await httpError { () async throws(HTTPError) in try await client.send(HTTPRequest(url: server.url("/json"))) }
      }
      // Its 1 s deadline, the 2 s grace, and at most one more second for the check to come round.
      #expect(error?.code == .timeout)
      #expect(error?.detail == "the HTTP worker (pid \(frozen)) gave no answer in time")
      #expect(elapsed >= .seconds(3) && elapsed < .seconds(30), "took \(elapsed)")
      #expect(try await ProcessProbe.waitUntilGone(frozen))
      #expect(try await client.send(HTTPRequest(url: server.url("/json"))).status == 200)
      #expect(client.workerProcessID != frozen)
    }

    @Test func aMissingWorkerBinaryIsNetworkUnavailableNamingThePath() async {
      let client = WorkerHTTPClient(log: .disabled, executable: "/nonexistent/auth-sidecar-http")
      for _ in 0..<2 {
        let error = await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: "http://127.0.0.1:1/"))
        }
        #expect(error?.code == .networkUnavailable)
        #expect(
          error?.detail == "HTTP worker /nonexistent/auth-sidecar-http could not start: No such file or directory")
        #expect(client.workerProcessID == nil)
      }
    }

    @Test func theWorkersLogReachesTheClientsLogWithoutSecrets() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let lines = LogLines()
      let client = WorkerHTTPClient(policy: .quick(), log: lines.logger)
      _ = try await client.send(
        HTTPRequest(
          method: .post, url: server.url("/echo?code=CANARY-QUERY"),
          headers: [HTTPHeader("Authorization", "Bearer CANARY-HEADER")], body: Array("password=CANARY-BODY".utf8)))
      _ = try await client.send(HTTPRequest(url: server.url("/set-cookies?state=CANARY-STATE")))
      _ = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: server.url("/status?code=503&token=CANARY-RETRY")))
      }
      let log = lines.all.joined()
      #expect(log.contains("auth-sidecar[debug]: http POST 127.0.0.1:\(server.port)/echo → 200"))
      #expect(log.contains("retrying in"))
      #expect(log.contains("http worker started (pid"))
      #expect(!log.contains("CANARY"))
      #expect(!log.contains("abc123"))
    }
  }
}
