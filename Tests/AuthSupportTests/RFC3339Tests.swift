import AuthSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

@Suite struct RFC3339Tests {
  @Test func formatsUTC() {
    #expect(RFC3339.format(0) == "1970-01-01T00:00:00Z")
    #expect(RFC3339.format(1_798_761_600) == "2027-01-01T00:00:00Z")
  }

  @Test(arguments: [
    ("2027-01-01T00:00:00Z", Int64(1_798_761_600)), ("2027-01-01T08:00:00+08:00", 1_798_761_600),
    ("2026-12-31T19:00:00.123-05:00", 1_798_761_600), ("1970-01-01t00:00:00z", 0),
  ])
  func parses(_ text: String, _ expected: Int64) {
    #expect(RFC3339.parse(text) == expected)
  }

  @Test(arguments: ["", "2027-01-01", "2027-13-01T00:00:00Z", "2027-01-01T00:00:00", "2027-01-01T00:00:00Zjunk",
    "2027-01-01T25:00:00Z", "2027-01-01T00:00:00+0800"])
  func rejects(_ text: String) {
    #expect(RFC3339.parse(text) == nil)
  }

  @Test func roundTrips() {
    for seconds in stride(from: Int64(0), to: 4_000_000_000, by: 97_654_321) {
      #expect(RFC3339.parse(RFC3339.format(seconds)) == seconds)
    }
  }

  /// The arithmetic date of years 1970 to 9999 is libc's, leap days and century years included.
  @Test func formatsAsGmtimeDoes() {
    let edges: [Int64] = [
      0, 59, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 4_107_542_400, 4_107_628_800,
      253_402_300_799,
    ]
    for seconds in edges + Array(stride(from: Int64(0), to: 253_402_300_800, by: 7_654_321_987)) {
      var time = time_t(seconds)
      var parts = tm()
      gmtime_r(&time, &parts)
      func pad(_ value: Int32, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
      }
      let expected = "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
        + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))Z"
      #expect(RFC3339.format(seconds) == expected, "\(seconds)")
    }
  }
}
