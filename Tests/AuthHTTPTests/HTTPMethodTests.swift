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

  /// The worker decodes the method back to the same case, and refuses a name it does not know.
  @Test func theWorkerMessageCarriesTheMethod() throws {
    for method in HTTPMethod.allCases {
      let request = HTTPRequest(method: method, url: "https://a.example/", body: method.allowsBody ? [1] : nil)
      let line = Array(WorkerMessage.send(id: 1, request: request).line.dropLast())
      guard case .send(_, let decoded) = try WorkerMessage(line: line) else {
        Issue.record("\(method) is not a send")
        continue
      }
      #expect(decoded.method == method)
    }
    let get = WorkerMessage.send(id: 1, request: HTTPRequest(url: "https://a/")).line.dropLast()
    let line = String(decoding: get, as: UTF8.self)
    #expect(line.contains(#""method":"GET""#))
    #expect(throws: WorkerProtocolError.self) {
      try WorkerMessage(line: Array(line.replacing(#""method":"GET""#, with: #""method":"BREW""#).utf8))
    }
  }
}
