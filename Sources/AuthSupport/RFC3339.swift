#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// RFC 3339 timestamps in UTC (`2026-11-29T18:00:00Z`), the form of every `expiresAt`.
package enum RFC3339 {
  package static func format(_ seconds: Int64) -> String {
    // Years 1970 to 9999, every expiry a server gives: the civil date is worked out here (Howard Hinnant's
    // `civil_from_days`). An answer with a session carries one, and libc's `gmtime_r` ran several times as much
    // code, each line of it fetched cold after the server's wait.
    if (0..<253_402_300_800).contains(seconds) {
      let (year, month, day) = civil(days: Int(seconds / 86_400))
      let time = Int(seconds % 86_400)
      return digits(year, month, day, time / 3600, time / 60 % 60, time % 60)
    }
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    let year = Int(parts.tm_year) + 1900
    guard (0...9999).contains(year) else {
      return String(year) + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + "T" + two(parts.tm_hour) + ":"
        + two(parts.tm_min) + ":" + two(parts.tm_sec) + "Z"
    }
    return digits(
      year, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }

  /// Year, month (1-12) and day (1-31) of `days` since 1970-01-01 (not negative).
  private static func civil(days: Int) -> (Int, Int, Int) {
    let shifted = days + 719_468  // days since 0000-03-01
    let era = shifted / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` for a year of four digits, written digit by digit: string interpolation of padded
  /// numbers cost more than the rest of an answer's encoding.
  private static func digits(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int
  ) -> String {
    String(unsafeUninitializedCapacity: 20) { buffer in
      func put(_ value: Int, _ width: Int, at offset: Int) {
        var value = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
          buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
          value /= 10
        }
      }
      put(year, 4, at: 0)
      put(month, 2, at: 5)
      put(day, 2, at: 8)
      put(hour, 2, at: 11)
      put(minute, 2, at: 14)
      put(second, 2, at: 17)
      (buffer[4], buffer[7], buffer[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
      (buffer[13], buffer[16], buffer[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
      return 20
    }
  }

  private static func two(_ value: Int32) -> String { value < 10 ? "0" + String(value) : String(value) }

  /// Parses `YYYY-MM-DDTHH:MM:SS` with `Z` or a `±HH:MM` offset (fractions ignored).
  package static func parse(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20 else { return nil }
    func number(_ range: Range<Int>) -> Int32? {
      var value: Int32 = 0
      for index in range {
        guard bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
        value = value * 10 + Int32(bytes[index] - 0x30)
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
      bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    if bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    }
    guard index < bytes.count else { return nil }
    var offset: Int64 = 0
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == bytes.count else { return nil }
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
        let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6)
      else { return nil }
      offset = Int64(hours) * 3600 + Int64(minutes) * 60
      if bytes[index] == UInt8(ascii: "-") { offset = -offset }
    default:
      return nil
    }
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = month - 1
    parts.tm_mday = day
    parts.tm_hour = hour
    parts.tm_min = minute
    parts.tm_sec = second
    return Int64(timegm(&parts)) - offset
  }
}
