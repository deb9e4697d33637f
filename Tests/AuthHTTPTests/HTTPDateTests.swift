import Testing

@testable import AuthHTTP

@Suite struct HTTPDateTests {
  @Test func cookieExpiresVariants() {
    #expect(HTTPDate.parse("Wed, 21 Oct 2037 07:28:00 GMT") == 2_139_722_880)
    #expect(HTTPDate.parse("Wed, 21-Oct-2037 07:28:00 GMT") == 2_139_722_880)
    #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
    #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT") == 1_835_481_599)
  }

  @Test func invalidDatesAreRejected() {
    #expect(HTTPDate.parse("Thu, 29 Feb 2029 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Thu, 01 Jan 1970 24:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Thu, 01 Foo 1970 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("0") == nil)
  }

  @Test func civilDaysMatchKnownDates() {
    #expect(HTTPDate.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
    #expect(HTTPDate.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
    #expect(HTTPDate.daysFromCivil(year: 1601, month: 1, day: 1) == -134_774)
  }
}
