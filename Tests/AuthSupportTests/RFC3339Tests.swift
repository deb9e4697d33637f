import AuthSupport
import Testing

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
}
