import AuthHTTP
import Testing

extension LiveServerTests {
  /// A request's own timeout (a profile's `timeoutSeconds`) bounds the send with libcurl's timer, not the caller's:
  /// shorter than the policy's total timeout, it ends a 3 s stall the policy would wait out (answering 200);
  /// longer, it does not extend the policy's.
  @Suite struct RequestTimeoutTests {
    @Test(arguments: [
      (policy: Duration.seconds(20), request: Duration.milliseconds(300)),
      (policy: Duration.milliseconds(300), request: Duration.seconds(20)),
    ])
    func theShorterOfTheRequestAndPolicyTimeoutsEndsTheSend(_ timeouts: (policy: Duration, request: Duration))
      async throws
    {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(policy: .quick(connect: .seconds(10), total: timeouts.policy), log: .disabled)
      let request = HTTPRequest(url: server.url("/stall?seconds=3"), timeout: timeouts.request)
      let (error, elapsed) = await measure {
        await httpError { () async throws(HTTPError) in try await client.send(request) }
      }
      #expect(error?.code == .timeout)
      #expect(elapsed < .seconds(20), "hang guard")
    }
  }
}
