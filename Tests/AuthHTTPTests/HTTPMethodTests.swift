import Testing

@testable import AuthHTTP

@Suite struct HTTPMethodTests {
  @Test func onlyTheWireSpellingParses() {
    #expect(HTTPMethod(rawValue: "GET") == .get)
    #expect(HTTPMethod(rawValue: "PATCH") == .patch)
    #expect(HTTPMethod(rawValue: "get") == nil)
    #expect(HTTPMethod(rawValue: "GET /x HTTP/1.1\r\n") == nil)
    #expect(HTTPMethod(rawValue: "") == nil)
    #expect(HTTPMethod.allCases.allSatisfy { HTTPToken.isValid($0.rawValue) && "\($0)" == $0.rawValue })
  }

  @Test func idempotenceFollowsRFC9110() {
    #expect(HTTPMethod.allCases.filter(\.isIdempotent) == [.get, .head, .put, .delete, .options])
  }

  @Test func getAndHeadCarryNoBody() {
    #expect(HTTPMethod.allCases.filter { !$0.allowsBody } == [.get, .head])
  }

}
