/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
  /// The wait the header asks for, measured from `now` (Unix seconds) for a date; a date in the
  /// past means no wait. Nil when the value is neither form.
  static func parse(_ value: String, now: Int64) -> Duration? {
    let text = value.trimmingASCIIWhitespace()
    guard !text.isEmpty else { return nil }
    if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      // A huge number is still "a long time": clamp rather than reject, so it is refused as too long.
      return .seconds(Int64(text) ?? Int64.max)
    }
    guard let date = HTTPDate.parse(text) else { return nil }
    return .seconds(max(0, date - now))
  }
}

extension String {
  /// Without leading and trailing spaces and tabs, the whitespace HTTP allows around values.
  func trimmingASCIIWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
