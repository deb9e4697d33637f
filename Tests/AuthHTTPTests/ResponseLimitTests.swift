import AuthHTTP
import Testing

extension LiveServerTests {
  @Suite struct ResponseLimitTests {
    @Test func aDeclaredBodyOverTheCapIsRefusedAtTheHeaders() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: server.url("/big?bytes=2097152&declared=1&key=declared")))
      }
      #expect(error?.code == .responseTooLarge)
      #expect(try await server.count("declared") == 1)
    }

    @Test func aStreamedBodyIsCutOffOnceItPassesTheCap() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let (error, elapsed) = await measure {
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: server.url("/big?bytes=2097152&key=two")))
        }
      }
      #expect(error?.code == .responseTooLarge)
      #expect(elapsed < .seconds(30), "hang guard")
    }

    @Test func bytesPastTheCapAreDroppedAsTheyArriveEvenAtLoopbackSpeed() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let before = peakResidentBytes()
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: server.url("/big?bytes=268435456&key=flood")))
      }
      #expect(error?.code == .responseTooLarge)
      // libcurl goes on reading for a few dozen milliseconds after the cancel (tens of MB at
      // loopback speed); what matters is that none of it is kept.
      let sent = try await server.bytesSent("flood")
      let growth = peakResidentBytes() - before
      #expect(growth < 48 << 20, "peak RSS grew by \(growth) bytes while the server wrote \(sent)")
    }

    @Test func theClientHangsUpSoTheRestOfAHugeBodyIsNeverSent() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let error = await httpError { () async throws(HTTPError) in
        try await client.send(HTTPRequest(url: server.url("/big?bytes=268435456&pace=1&key=paced")))
      }
      #expect(error?.code == .responseTooLarge)
      // The server's writes failed soon after the cap: the connection was closed, not parked. What
      // it got out is the 1 MiB read plus what the loopback socket buffers held.
      let sent = try await server.bytesSent("paced")
      #expect(sent < 16 << 20, "server wrote \(sent) bytes")
    }

    @Test func aStallLongerThanTheTotalTimeoutFailsWithinTheTimeoutPlusOneSecond() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(connect: .seconds(5), total: .seconds(1)), log: .disabled)
      let (error, elapsed) = await measure {
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: server.url("/stall?seconds=4")))
        }
      }
      // The code says the total timeout fired before the 4 s stall ended; the bound only that it waited. libcurl
      // counts its 1 s in whole milliseconds from its own start, which can be a hair under ours: 0.9 s, not 1 s.
      #expect(error?.code == .timeout)
      #expect(elapsed >= .milliseconds(900), "took \(elapsed)")
    }

    @Test func anIdleTimeoutOnAPostIsNotRetried() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(connect: .seconds(1), total: .seconds(5)), log: .disabled)
      let (error, elapsed) = await measure {
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(method: .post, url: server.url("/stall?seconds=3&key=idle"), body: []))
        }
      }
      #expect(error?.code == .timeout)
      #expect(elapsed < .seconds(30), "hang guard; took \(elapsed)")
      #expect(try await server.count("idle") == 1)
    }

    @Test func cancellingTheTaskCancelsTheRequestPromptly() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(), log: .disabled)
      let started = ContinuousClock.now
      let task = Task { () async -> HTTPError? in
        await httpError { () async throws(HTTPError) in
          try await client.send(HTTPRequest(url: server.url("/stall?seconds=4&key=cancel")))
        }
      }
      try await server.waitForRequest("cancel")
      task.cancel()
      #expect(await task.value?.code == .cancelled)
      // Long before the server's 4 s stall ends (a hang guard, not a speed test).
      #expect(ContinuousClock.now - started < .seconds(3))
    }
  }
}
