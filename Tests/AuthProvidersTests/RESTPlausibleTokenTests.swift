import AuthJSON
import Testing

@testable import AuthProviders

/// A 2xx answer's "token" must be one: a flag, a status word, a number or a boolean where the token should be
/// is a misread answer, and storing it would log a refused password in.
@Suite struct RESTPlausibleTokenTests {
  @Test(arguments: [
    JSONValue.string("0"), .string("1"), .string("false"), .string("true"), .string(""), .string("       "),
    .string("UNDEFINED"), .string("anonymous"), .string("null"), .string("ok"), .number(JSONNumber(12_345_678_901)),
    .bool(true), .bool(false), .null, .object([:]), .array([.string("abcdefghijkl")]),
    .string("abc def ghi jkl"), .string("token-with-é-inside"), .string("line\r\nX-Injected: 1"),
  ])
  func flagsAndWrongTypesAreNotTokens(_ value: JSONValue) {
    #expect(PlausibleToken.text(value) == nil)
  }

  @Test func aMissingFieldIsNotAToken() {
    #expect(PlausibleToken.text(nil) == nil)
  }

  @Test(arguments: [
    "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "at_3f1d0c6e9a", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
    "Qx-7_Yv~+/=12345",
  ])
  func realTokensAre(_ token: String) {
    #expect(PlausibleToken.text(.string(token)) == token)
  }
}
