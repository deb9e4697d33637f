import AuthJSON
import Testing

@testable import AuthProtocol

@Suite struct MessageDecoderTests {
  // MARK: Requests and notifications

  @Test func requestWithObjectParams() {
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","id":1,"method":"validate","params":{"email":"a@b.co"}}"#)
        == .single(.request(id: .number("1"), method: "validate", params: json(#"{"email":"a@b.co"}"#))))
  }

  @Test func requestWithoutParams() {
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","id":"a","method":"status"}"#)
        == .single(.request(id: .string("a"), method: "status", params: nil)))
  }

  @Test func membersMayComeInAnyOrder() {
    #expect(
      Decoded.decode(#"{"params":[],"method":"m","id":2,"jsonrpc":"2.0"}"#)
        == .single(.request(id: .number("2"), method: "m", params: [])))
  }

  @Test func noIDMemberMeansNotification() {
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","method":"update","params":[1,2]}"#)
        == .single(.notification(method: "update", params: [1, 2])))
  }

  @Test func nullIDIsARequestNotANotification() {
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#)
        == .single(.request(id: .null, method: "m", params: nil)))
  }

  // MARK: Ids are echoed exactly

  @Test(arguments: [
    (#""abc""#, RequestID.string("abc")),
    (#""""#, .string("")),
    (#""\u00e9\n""#, .string("é\n")),
    ("0", .number("0")),
    ("-0", .number("-0")),
    ("1.50", .number("1.50")),
    ("1e3", .number("1e3")),
    ("1E400", .number("1E400")),
    ("123456789012345678901234567890", .number("123456789012345678901234567890")),
    ("-7", .number("-7")),
    ("null", .null),
  ])
  func idKindsAreKeptExactly(idText: String, id: RequestID) {
    let text = #"{"jsonrpc":"2.0","id":"# + idText + #","method":"m"}"#
    #expect(Decoded.decode(text) == .single(.request(id: id, method: "m", params: nil)))
    // And written back: byte for byte, except that escapes come back in the writer's own form.
    let answer = String(decoding: OutgoingMessage.result(id: id, nil).encoded, as: UTF8.self)
    if idText.contains("\\") {
      #expect(answer == #"{"jsonrpc":"2.0","id":"é\n","result":null}"#)
    } else {
      #expect(answer == #"{"jsonrpc":"2.0","id":"# + idText + #","result":null}"#)
    }
  }

  @Test(arguments: ["true", "false", "[1]", "{}", #"{"id":1}"#])
  func idOfAnotherTypeIsInvalidAndAnsweredToNull(idText: String) {
    let text = #"{"jsonrpc":"2.0","id":"# + idText + #","method":"m"}"#
    #expect(Decoded.decode(text) == .single(.invalid(id: .null, kind: .invalidRequest)))
  }

  // MARK: Invalid requests keep their id

  @Test(arguments: [
    #"{"id":5,"method":"m"}"#,  // no jsonrpc
    #"{"jsonrpc":"1.0","id":5,"method":"m"}"#,
    #"{"jsonrpc":2.0,"id":5,"method":"m"}"#,
    #"{"jsonrpc":"2.0 ","id":5,"method":"m"}"#,
    #"{"jsonrpc":null,"id":5,"method":"m"}"#,
  ])
  func missingOrWrongVersionIsInvalid(text: String) {
    #expect(Decoded.decode(text) == .single(.invalid(id: .number("5"), kind: .invalidRequest)))
    #expect(Decoded.error(text)?.message.contains("jsonrpc") == true)
  }

  @Test(arguments: [
    #"{"jsonrpc":"2.0","id":"x"}"#,
    #"{"jsonrpc":"2.0","id":"x","method":1}"#,
    #"{"jsonrpc":"2.0","id":"x","method":null}"#,
    #"{"jsonrpc":"2.0","id":"x","method":["m"]}"#,
    #"{"jsonrpc":"2.0","id":"x","method":{"name":"m"}}"#,
  ])
  func missingOrNonStringMethodIsInvalid(text: String) {
    #expect(Decoded.decode(text) == .single(.invalid(id: .string("x"), kind: .invalidRequest)))
  }

  @Test(arguments: [#""bar""#, "1", "true", "null"])
  func paramsMustBeStructured(paramsText: String) {
    let text = #"{"jsonrpc":"2.0","id":3,"method":"m","params":"# + paramsText + "}"
    #expect(Decoded.decode(text) == .single(.invalid(id: .number("3"), kind: .invalidRequest)))
  }

  @Test(arguments: ["result", "error", "Method", "ID", "extra"])
  func unknownMembersAreInvalid(member: String) {
    let text = #"{"jsonrpc":"2.0","id":4,"method":"m",""# + member + #"":1}"#
    #expect(Decoded.decode(text) == .single(.invalid(id: .number("4"), kind: .invalidRequest)))
    #expect(Decoded.error(text)?.message.contains(member) == true)
  }

  @Test func longUnknownMemberNamesAreShortenedInTheMessage() {
    let name = String(repeating: "k", count: 500)
    let message = Decoded.error(#"{"jsonrpc":"2.0","id":4,"method":"m",""# + name + #"":1}"#)?.message ?? ""
    #expect(message.count < 100)
  }

  @Test func duplicateKeysAreInvalidButTheIDIsRecovered() {
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","id":7,"method":"a","method":"b"}"#)
        == .single(.invalid(id: .number("7"), kind: .invalidRequest)))
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","id":"first","method":"a","id":"second"}"#)
        == .single(.invalid(id: .string("first"), kind: .invalidRequest)))
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","method":"a","params":{},"params":[]}"#)
        == .single(.invalid(id: .null, kind: .invalidRequest)), "a notification with repeats is answered to null")
    #expect(
      Decoded.error(#"{"jsonrpc":"2.0","id":7,"method":"a","method":"b"}"#)?.message.contains("duplicate") == true)
  }

  @Test func duplicateKeysInsideParamsAreLeftToTheMethod() {
    // Params strictness (including repeats) is the dispatcher's job, with -32602.
    #expect(
      Decoded.decode(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}"#)
        == .single(.request(id: .number("1"), method: "m", params: json(#"{"a":1,"a":2}"#))))
  }

  @Test(arguments: ["1", #""text""#, "null", "true"])
  func aMessageMustBeAnObject(text: String) {
    #expect(Decoded.decode(text) == .single(.invalid(id: .null, kind: .invalidRequest)))
  }

  // MARK: Not JSON, too deep

  @Test(arguments: ["", "{", #"{"jsonrpc":"2.0","id":1,"method":"m""#, "{\"a\":1}x", "Content-Length: 2"])
  func notJSONIsAParseError(text: String) {
    #expect(Decoded.decode(text) == .rejected(.parseError))
  }

  @Test func invalidUTF8AndNULAreParseErrors() {
    let prefix = Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8)
    #expect(Decoded.decode(prefix + [0xC0, 0xAF] + Array(#""}"#.utf8)) == .rejected(.parseError))
    #expect(Decoded.decode(prefix + [0x00] + Array(#""}"#.utf8)) == .rejected(.parseError))
    #expect(Decoded.decode([0xFF, 0xFE]) == .rejected(.parseError))
  }

  @Test func tooDeepIsAnInvalidRequestNotAParseError() {
    let deep =
      #"{"jsonrpc":"2.0","id":1,"method":"m","params":"# + String(repeating: "[", count: 80)
      + String(repeating: "]", count: 80) + "}"
    #expect(Decoded.decode(deep) == .rejected(.invalidRequest))
    #expect(Decoded.error(deep)?.message.contains("64") == true)
    let broken = String(repeating: "[", count: 100_000)
    #expect(Decoded.decode(broken) == .rejected(.parseError))
  }

  @Test func depthLimitIsConfigurable() {
    let text = #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}}"#
    #expect(
      Decoded.decode(text, with: MessageDecoder(maxDepth: 3))
        == .single(.request(id: .number("1"), method: "m", params: json(#"{"a":[1]}"#))))
    #expect(Decoded.decode(text, with: MessageDecoder(maxDepth: 2)) == .rejected(.invalidRequest))
  }

  // MARK: Batches

  @Test func batchElementsAreClassifiedInOrder() {
    let text = #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"foo":"boo"},7]"#
    #expect(
      Decoded.decode(text)
        == .batch([
          .request(id: .number("1"), method: "a", params: nil), .notification(method: "n", params: nil),
          .invalid(id: .null, kind: .invalidRequest), .invalid(id: .null, kind: .invalidRequest),
        ]))
  }

  @Test func emptyBatchIsRejected() {
    #expect(Decoded.decode("[]") == .rejected(.invalidRequest))
    #expect(Decoded.decode(" [ ] ") == .rejected(.invalidRequest))
  }

  @Test func nestedBatchIsAnInvalidElement() {
    #expect(
      Decoded.decode(#"[[{"jsonrpc":"2.0","id":1,"method":"a"}]]"#)
        == .batch([.invalid(id: .null, kind: .invalidRequest)]))
  }

  @Test func batchSizeLimit() {
    let decoder = MessageDecoder(maxBatchSize: 3)
    let element = #"{"jsonrpc":"2.0","method":"n"}"#
    let three = "[" + Array(repeating: element, count: 3).joined(separator: ",") + "]"
    let four = "[" + Array(repeating: element, count: 4).joined(separator: ",") + "]"
    #expect(
      Decoded.decode(three, with: decoder)
        == .batch(Array(repeating: .notification(method: "n", params: nil), count: 3)))
    #expect(Decoded.decode(four, with: decoder) == .rejected(.invalidRequest))
    #expect(MessageDecoder().maxBatchSize == 10_000)
  }

  @Test func classifyWorksOnParsedValues() {
    let decoder = MessageDecoder()
    #expect(
      Decoded(decoder.classify(json(#"{"jsonrpc":"2.0","id":1,"method":"a"}"#)))
        == .single(.request(id: .number("1"), method: "a", params: nil)))
    #expect(Decoded.Message(decoder.classifyMessage(json("[]"))) == .invalid(id: .null, kind: .invalidRequest))
  }
}
