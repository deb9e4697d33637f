import AuthJSON

/// The policy in the worker's `hello`: durations in whole nanoseconds, so it arrives exactly as it was.
extension HTTPPolicy {
  var wireObject: JSONObject {
    [
      "connectTimeoutNs": Self.nanoseconds(connectTimeout), "totalTimeoutNs": Self.nanoseconds(totalTimeout),
      "maxResponseBytes": .number(JSONNumber(maxResponseBytes)), "maxAttempts": .number(JSONNumber(maxAttempts)),
      "backoffBaseNs": Self.nanoseconds(backoffBase), "backoffCapNs": Self.nanoseconds(backoffCap),
      "maxRetryAfterNs": Self.nanoseconds(maxRetryAfter),
    ]
  }

  /// Nil when a field is missing or not a whole number in range.
  init?(wireObject object: JSONObject) {
    func number(_ key: String) -> Int64? {
      guard case .number(let number)? = object[key] else { return nil }
      return number.int64Value
    }
    guard let connect = number("connectTimeoutNs"), let total = number("totalTimeoutNs"),
      let maxBytes = number("maxResponseBytes"), let attempts = number("maxAttempts"),
      let base = number("backoffBaseNs"), let cap = number("backoffCapNs"), let retryAfter = number("maxRetryAfterNs"),
      maxBytes >= 0, attempts >= 1
    else { return nil }
    self.init()
    connectTimeout = .nanoseconds(connect)
    totalTimeout = .nanoseconds(total)
    maxResponseBytes = Int(maxBytes)
    maxAttempts = Int(attempts)
    backoffBase = .nanoseconds(base)
    backoffCap = .nanoseconds(cap)
    maxRetryAfter = .nanoseconds(retryAfter)
  }

  /// Saturating: a policy of "forever" stays forever rather than wrapping around.
  private static func nanoseconds(_ duration: Duration) -> JSONValue {
    let (seconds, attoseconds) = duration.components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    let value = overflow || overflowAgain ? (seconds < 0 ? Int64.min : Int64.max) : sum
    return .number(JSONNumber(value))
  }
}
