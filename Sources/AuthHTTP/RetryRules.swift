/// Which outcomes are worth another attempt, and after how long: transient failures only (connection errors,
/// 502/503/504, 429 honouring `Retry-After`) with capped, jittered exponential backoff, never a 4xx, which would
/// only be refused again.
package struct RetryRules: Sendable {
  let backoff: Backoff
  let maxRetryAfter: Duration

  package init(_ policy: HTTPPolicy) {
    backoff = Backoff(policy)
    maxRetryAfter = policy.maxRetryAfter
  }

  /// The wait before sending again after `response`, or nil to hand it to the caller as it is. `unit` (the
  /// jitter, in 0...1) is drawn only for a retry: a random draw is a system call on every answer otherwise; `now`
  /// (the wall clock, for a `Retry-After` date) is read only for a status that may be retried.
  ///
  /// 429 and 503 say the server declined the work, so they are retried for any method; 502 and 504
  /// come from a gateway whose upstream may have done the work, so only idempotent requests are.
  /// `Retry-After` replaces the backoff, and one longer than `maxRetryAfter` ends the retries.
  /// Other statuses, 500 included, are answers, not transient failures.
  package func delay(
    after response: HTTPResponse, idempotent: Bool, failures: Int, now: @autoclosure () -> Int64,
    unit: @autoclosure () -> Double
  ) -> Duration? {
    switch response.status {
    case 429, 503: break
    case 502, 504: guard idempotent else { return nil }
    default: return nil
    }
    if let value = response.header("retry-after"), let wait = RetryAfter.parse(value, now: now()) {
      return wait <= maxRetryAfter ? wait : nil
    }
    return backoff.delay(afterFailures: failures, unit: unit())
  }

  /// The wait before sending again after `failure`, or nil to throw it. A request that never left
  /// is always safe to resend; one that may have been processed only when it is idempotent.
  package func delay(
    after failure: TransportFailure, idempotent: Bool, failures: Int, unit: @autoclosure () -> Double
  ) -> Duration? {
    switch failure.error.code {
    case .networkUnavailable, .timeout:
      guard failure.neverSent || idempotent else { return nil }
      return backoff.delay(afterFailures: failures, unit: unit())
    default:
      return nil
    }
  }
}
