import AuthJSON
import Testing

@testable import AuthProtocol

@Suite struct RequestIDTests {
  @Test func initFromJSONValues() {
    #expect(RequestID(.string("a")) == .string("a"))
    #expect(RequestID(.number(JSONNumber(validatedText: "1.0"))) == .number("1.0"))
    #expect(RequestID(.null) == .null)
    #expect(RequestID(.bool(true)) == nil)
    #expect(RequestID([1]) == nil)
    #expect(RequestID(.object([:])) == nil)
  }

  @Test(arguments: [
    RequestID.string("x\"y"), .number("-0"), .number("1.50"), .number("123456789012345678901234567890"), .null,
  ])
  func jsonRoundTrips(id: RequestID) {
    #expect(RequestID(id.json) == id)
  }

  @Test func idsCompareByLexeme() {
    // `1` and `1.0` are different ids: they are echoed as sent, never normalised.
    #expect(RequestID.number("1") != .number("1.0"))
    #expect(RequestID.string("1") != .number("1"))
    #expect(Set([RequestID.number("1"), .number("1"), .string("1")]).count == 2)
  }

  @Test func descriptions() {
    #expect(RequestID.string("a").description == #""a""#)
    #expect(RequestID.number("1.50").description == "1.50")
    #expect(RequestID.null.description == "null")
  }
}
