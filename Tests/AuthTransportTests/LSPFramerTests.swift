import Testing

@testable import AuthTransport

@Suite struct LSPFramerTests {
  static func frame(_ body: String, headers: String = "") -> String {
    "Content-Length: \(body.utf8.count)\r\n" + headers + "\r\n" + body
  }

  static let twoMessages =
    frame(#"{"id":1}"#) + frame(#"{"id":"é"}"#, headers: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
  static let twoExpected: [Event] = [.message(#"{"id":1}"#), .message(#"{"id":"é"}"#)]

  @Test func wholeInput() {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(Self.twoMessages) == Self.twoExpected)
  }

  @Test func splitAtEveryByteOfHeadersAndBodies() {
    let bytes = Array(Self.twoMessages.utf8)
    for chunks in Chunking.everySplit(bytes) {
      var framer = LSPFramer(maxMessageBytes: 100)
      #expect(framer.events(chunks) == Self.twoExpected, "split at \(chunks[0].count)")
    }
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(Chunking.bytes(bytes)) == Self.twoExpected)
  }

  @Test(arguments: 1...10)
  func randomChunkSizes(seed: Int) {
    let input = String(repeating: Self.twoMessages, count: 5)
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(
      framer.events(Chunking.random(Array(input.utf8), seed: UInt64(seed), maxSize: 7))
        == Array(repeating: Self.twoExpected, count: 5).flatMap { $0 })
  }

  @Test(arguments: [
    "content-length: 2", "CONTENT-LENGTH: 2", "Content-length:2", "content-Length:   2  ", "Content-Length:\t2",
  ])
  func headerNameIsCaseInsensitiveAndValueTrimmed(header: String) {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(header + "\r\n\r\n{}") == [.message("{}")])
  }

  @Test func extraHeadersBeforeAndAfter() {
    var framer = LSPFramer(maxMessageBytes: 100)
    let input = "X-Before: 1\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}"
    #expect(framer.events(input) == [.message("{}")])
  }

  @Test func missingContentLengthIsAFramingErrorThenRecovers() {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(
      framer.events("Content-Type: application/json\r\n\r\n" + Self.frame("[]")) == [.framingError, .message("[]")])
  }

  @Test func aBadHeaderFollowedByABodyRecoversAtTheNextHeader() {
    // The sender still writes a body, whose length we cannot know: it runs into the next header
    // block, and the framer must find that block's Content-Length instead of losing every
    // message after the bad one.
    let input = "Content-Type: x\r\n\r\n" + #"{"s":"Content-Length: 9"}"# + Self.frame("{}") + Self.frame("[]")
    var whole = LSPFramer(maxMessageBytes: 100)
    #expect(whole.events(input) == [.framingError, .message("{}"), .message("[]")])
    var bytes = LSPFramer(maxMessageBytes: 100)
    #expect(bytes.events(Chunking.bytes(Array(input.utf8))) == [.framingError, .message("{}"), .message("[]")])
  }

  @Test func aBadHeaderFollowedByALongBodyStillRecovers() {
    let input = "X-Bad: 1\r\n\r\n" + String(repeating: "j", count: 20_000) + Self.frame("{}") + Self.frame("[]")
    var framer = LSPFramer(maxMessageBytes: 100)
    let events = framer.events(Chunking.random(Array(input.utf8), seed: 3, maxSize: 4_096))
    #expect(events.suffix(2) == [.message("{}"), .message("[]")])
    #expect(events.dropLast(2).allSatisfy { $0 == .framingError })
  }

  /// A header block without its blank line: the body runs into the block, followed by the next
  /// message's header. Only the broken message may be lost, wherever the reads split the input.
  @Test(arguments: ["", "\r\n"])
  func aHeaderWithoutItsBlankLineLosesOnlyThatMessage(afterBody: String) {
    let following = (1...8).map { #"{"id":\#($0)}"# }
    let input = "Content-Length: 17\r\n" + #"{"id":0,"x":"ab"}"# + afterBody + following.map { Self.frame($0) }.joined()
    let expected: [Event] = [.framingError] + following.map { .message($0) }
    var whole = LSPFramer(maxMessageBytes: 100)
    #expect(whole.events(input) == expected)
    var bytes = LSPFramer(maxMessageBytes: 100)
    #expect(bytes.events(Chunking.bytes(Array(input.utf8))) == expected)
    var random = LSPFramer(maxMessageBytes: 100)
    #expect(random.events(Chunking.random(Array(input.utf8), seed: 11, maxSize: 9)) == expected)
  }

  @Test func onlyAResynchronisingFramerLooksPastTheLineStart() {
    // In step, a header line must be named Content-Length exactly.
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events("X-Content-Length: 2\r\n\r\n{}" + Self.frame("[]")) == [.framingError, .message("[]")])
  }

  @Test(arguments: [
    "Content-Length: abc", "Content-Length: -1", "Content-Length: ", "Content-Length: 1234567890123",
    "Content-Length: 2x", "Garbage without colon",
  ])
  func unusableContentLengthIsAFramingErrorThenRecovers(header: String) {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(header + "\r\n\r\n" + Self.frame("[]")) == [.framingError, .message("[]")])
  }

  @Test func overlongHeaderBlockIsAFramingError() {
    var framer = LSPFramer(maxMessageBytes: 100)
    let junk = "X-Junk: " + String(repeating: "j", count: 9_000)
    let events = framer.events(junk)
    #expect(events.first == .framingError)
    #expect(!events.contains { if case .message = $0 { true } else { false } })
  }

  @Test func oversizedBodyIsReportedAndSkipped() {
    let body = String(repeating: "b", count: 500)
    let input = Array((Self.frame(body) + Self.frame("{}")).utf8)
    var whole = LSPFramer(maxMessageBytes: 100)
    #expect(whole.events([input]) == [.oversized, .message("{}")])
    var split = LSPFramer(maxMessageBytes: 100)
    #expect(split.events(Chunking.random(input, seed: 7, maxSize: 64)) == [.oversized, .message("{}")])
  }

  @Test func bodyOfExactlyTheLimitPasses() {
    let body = String(repeating: "b", count: 100)
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(Self.frame(body)) == [.message(body)])
  }

  @Test func emptyBodyIsAnEmptyMessage() {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(Self.frame("") + Self.frame("{}")) == [.message(""), .message("{}")])
  }

  @Test func strayLineBreaksBetweenMessagesAreIgnored() {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(Self.frame("{}") + "\r\n\n" + Self.frame("[]")) == [.message("{}"), .message("[]")])
  }

  @Test func bodiesMayContainNewlinesAndHeaderLookalikes() {
    let body = "{\n\"a\": \"Content-Length: 99\\r\\n\\r\\n\"\n}"
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(framer.events(Self.frame(body) + Self.frame("{}")) == [.message(body), .message("{}")])
  }

  @Test func headerLinesAreTokenColonValue() {
    #expect(LSPFramer.firstNonHeaderLine(in: Array("Content-Length: 2\r\nX-A: b\r\n\r\n".utf8)) == nil)
    #expect(LSPFramer.firstNonHeaderLine(in: Array("Content-Length: 2\r\n{\"a\":1}\r\n".utf8)) == 19)
    #expect(LSPFramer.firstNonHeaderLine(in: Array(": x\r\n".utf8)) == 0)
  }

  @Test func contentLengthParsing() {
    #expect(LSPFramer.contentLength(in: Array("Content-Length: 12\r\n\r\n".utf8)) == 12)
    #expect(LSPFramer.contentLength(in: Array("A: b\r\ncontent-length:0\r\n\r\n".utf8)) == 0)
    #expect(LSPFramer.contentLength(in: Array("Content-Type: x\r\n\r\n".utf8)) == nil)
    #expect(LSPFramer.contentLength(in: Array("Content-Length: ２\r\n\r\n".utf8)) == nil, "ASCII digits only")
  }
}
