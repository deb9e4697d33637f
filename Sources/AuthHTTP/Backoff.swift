/// Capped exponential backoff with full jitter: after the n-th failure, wait a uniformly random time
/// in [0, min(cap, base·2ⁿ⁻¹)]. Full jitter spreads out clients that failed together, so they do not
/// come back together.
struct Backoff: Sendable {
  let base: Duration
  let cap: Duration

  init(base: Duration, cap: Duration) {
    self.base = base
    self.cap = cap
  }

  init(_ policy: HTTPPolicy) { self.init(base: policy.backoffBase, cap: policy.backoffCap) }

  /// The upper bound of the wait after `failures` failed attempts (1 or more).
  func ceiling(afterFailures failures: Int) -> Duration {
    var ceiling = base
    // Doubling stops at the cap, so a large count cannot overflow.
    for _ in 1..<max(1, failures) where ceiling < cap { ceiling *= 2 }
    return min(ceiling, cap)
  }

  /// The wait after `failures` failed attempts, `unit` (in [0, 1]) choosing where in the range.
  func delay(afterFailures failures: Int, unit: Double = Double.random(in: 0...1)) -> Duration {
    ceiling(afterFailures: failures) * min(max(unit, 0), 1)
  }
}
