import Testing

@testable import AuthHTTP

@Suite struct RetryAfterTests {
  /// 1994-11-06T08:49:37Z, the date in RFC 9110's examples.
  let rfcExample: Int64 = 784_111_777

  @Test func delaySeconds() {
    #expect(RetryAfter.parse("1", now: 0) == .seconds(1))
    #expect(RetryAfter.parse(" 120 ", now: 0) == .seconds(120))
    #expect(RetryAfter.parse("0", now: 0) == .zero)
    #expect(RetryAfter.parse("99999999999999999999999", now: 0) == .seconds(Int64.max))
  }

  @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
  func httpDatesInAllThreeFormsCountFromNow(text: String) {
    #expect(RetryAfter.parse(text, now: rfcExample - 10) == .seconds(10))
    #expect(RetryAfter.parse(text, now: rfcExample + 10) == .zero)
  }

  @Test(arguments: ["", "soon", "-1", "1.5", "Sun, 06 Nov 1994", "Sun, 31 Feb 1994 08:49:37 GMT"])
  func anythingElseIsIgnored(text: String) {
    #expect(RetryAfter.parse(text, now: 0) == nil)
  }
}
