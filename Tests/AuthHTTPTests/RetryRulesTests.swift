import Testing

@testable import AuthHTTP

@Suite struct RetryRulesTests {
  let rules = RetryRules(HTTPPolicy())

  func response(_ status: Int, retryAfter: String? = nil) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: retryAfter.map { [HTTPHeader("Retry-After", $0)] } ?? [], body: [],
      finalURL: "https://a/")
  }

  func delay(_ response: HTTPResponse, idempotent: Bool = false) -> Duration? {
    rules.delay(after: response, idempotent: idempotent, failures: 2, now: 0, unit: 1)
  }

  @Test func declinedWorkIsRetriedForAnyMethodHonouringRetryAfter() {
    #expect(delay(response(429, retryAfter: "1")) == .seconds(1))
    #expect(delay(response(503, retryAfter: "30")) == .seconds(30))
    #expect(delay(response(503)) == .milliseconds(500))
    #expect(delay(response(429, retryAfter: "garbage")) == .milliseconds(500))
  }

  @Test func aRetryAfterBeyondTheLimitEndsTheRetries() {
    #expect(delay(response(429, retryAfter: "31")) == nil)
  }

  @Test func gatewayFailuresAreRetriedOnlyWhenIdempotent() {
    #expect(delay(response(502)) == nil)
    #expect(delay(response(504)) == nil)
    #expect(delay(response(502), idempotent: true) == .milliseconds(500))
    #expect(delay(response(504), idempotent: true) == .milliseconds(500))
  }

  @Test(arguments: [200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 500, 501])
  func answersAreNeverRetried(status: Int) {
    #expect(delay(response(status), idempotent: true) == nil)
  }

  @Test func failuresThatNeverLeftAreRetriedForAnyMethod() {
    let refused = TransportFailure(HTTPError(.networkUnavailable, "refused"), neverSent: true)
    #expect(rules.delay(after: refused, idempotent: false, failures: 1, unit: 1) == .milliseconds(250))
  }

  @Test func failuresAfterSendingAreRetriedOnlyWhenIdempotent() {
    for code in [HTTPError.Code.networkUnavailable, .timeout] {
      let failure = TransportFailure(HTTPError(code, "reset or silent"))
      #expect(rules.delay(after: failure, idempotent: false, failures: 1, unit: 1) == nil)
      #expect(rules.delay(after: failure, idempotent: true, failures: 1, unit: 1) == .milliseconds(250))
    }
  }

  @Test func otherFailuresAreNeverRetried() {
    for code in [HTTPError.Code.tls, .responseTooLarge, .cancelled, .redirectRefused, .invalidURL] {
      let failure = TransportFailure(HTTPError(code, "final"), neverSent: true)
      #expect(rules.delay(after: failure, idempotent: true, failures: 1, unit: 1) == nil)
    }
  }
}
