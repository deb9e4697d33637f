import Testing

@testable import AuthTransport

@Suite struct LineFramerTests {
  static let limit = 32

  /// Lines of every kind the framer must handle, as one input.
  static let mixedInput: [UInt8] = Array(
    (#"{"a":1}"# + "\n" + "\n" + #"{"b":2}"# + "\r\n" + "\r\n" + "  \t \n" + String(repeating: "x", count: 100) + "\n"
      + #"{"c":3}"# + "\n" + String(repeating: "y", count: 33) + "\r\n" + String(repeating: "z", count: 32) + "\r\n"
      + #"[1, 2]"# + "\n" + #"{"last":true}"#).utf8)

  static let mixedExpected: [Event] = [
    .message(#"{"a":1}"#), .message(#"{"b":2}"#), .oversized, .message(#"{"c":3}"#), .oversized,
    .message(String(repeating: "z", count: 32)), .message("[1, 2]"), .message(#"{"last":true}"#),
  ]

  @Test func wholeInput() {
    var framer = LineFramer(maxMessageBytes: Self.limit)
    #expect(framer.events(Chunking.whole(Self.mixedInput)) == Self.mixedExpected)
  }

  @Test func oneByteAtATimeGivesTheSameMessages() {
    var framer = LineFramer(maxMessageBytes: Self.limit)
    #expect(framer.events(Chunking.bytes(Self.mixedInput)) == Self.mixedExpected)
  }

  @Test(arguments: 1...25)
  func randomChunkSizesGiveTheSameMessages(seed: Int) {
    var framer = LineFramer(maxMessageBytes: Self.limit)
    #expect(framer.events(Chunking.random(Self.mixedInput, seed: UInt64(seed))) == Self.mixedExpected)
  }

  @Test func everyTwoWaySplitGivesTheSameMessages() {
    for chunks in Chunking.everySplit(Self.mixedInput) {
      var framer = LineFramer(maxMessageBytes: Self.limit)
      #expect(framer.events(chunks) == Self.mixedExpected, "split at \(chunks[0].count)")
    }
  }

  @Test func crlfIsStripped() {
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events("{}\r\n[]\r\n") == [.message("{}"), .message("[]")])
  }

  @Test func onlyOneTrailingCRIsStripped() {
    // A lone CR inside the line is the JSON parser's business (it is white space there).
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events("{}\r\r\n") == [.message("{}\r")])
  }

  @Test func blankLinesAreIgnored() {
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events("\n\r\n \n\t\r\n{}\n\n") == [.message("{}")])
  }

  @Test func lastLineWithoutNewlineComesOutAtFinish() {
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events(#"{"a":1}"#, finish: false) == [])
    #expect(framer.events([], finish: true) == [.message(#"{"a":1}"#)])
    #expect(framer.events([], finish: true) == [], "finish twice emits nothing more")
  }

  @Test func lastLineWithCRButNoNewline() {
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events("{}\r") == [.message("{}")])
  }

  @Test func finishWithNothingPendingEmitsNothing() {
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events("{}\n") == [.message("{}")])
    var blank = LineFramer(maxMessageBytes: 100)
    #expect(blank.events("  ") == [])
  }

  @Test func lineOfExactlyTheLimitPasses() {
    let line = String(repeating: "a", count: 10)
    for ending in ["\n", "\r\n"] {
      var framer = LineFramer(maxMessageBytes: 10)
      #expect(framer.events(line + ending) == [.message(line)])
      var split = LineFramer(maxMessageBytes: 10)
      #expect(split.events(Chunking.bytes(Array((line + ending).utf8))) == [.message(line)])
    }
    var atEnd = LineFramer(maxMessageBytes: 10)
    #expect(atEnd.events(line) == [.message(line)], "at finish too")
  }

  @Test func oversizedLineIsReportedOnceAndSkipped() {
    let long = String(repeating: "a", count: 11)
    for chunks in [Chunking.whole(Array((long + "\n{}\n").utf8)), Chunking.bytes(Array((long + "\n{}\n").utf8))] {
      var framer = LineFramer(maxMessageBytes: 10)
      #expect(framer.events(chunks) == [.oversized, .message("{}")])
    }
    var crlf = LineFramer(maxMessageBytes: 10)
    #expect(crlf.events(long + "\r\n{}\r\n") == [.oversized, .message("{}")])
  }

  @Test func oversizedLastLineIsDroppedAtFinish() {
    var framer = LineFramer(maxMessageBytes: 10)
    #expect(framer.events(Chunking.bytes(Array(String(repeating: "a", count: 50).utf8))) == [.oversized])
    var next = framer
    #expect(next.events("{}\n") == [.message("{}")], "a fresh start after finish")
  }

  @Test("a 10 MB line fed in 64 KiB chunks: one .oversized early, nothing more, then the next line")
  func hugeLineIsSkippedWithoutBuffering() {
    let limit = 1 << 20
    var framer = LineFramer(maxMessageBytes: limit)
    let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 1 << 16)
    let total = 10 * 1024 * 1024
    var events: [Event] = []
    var bytesFedAtFirstEvent: Int?
    var fed = 0
    chunk.withUnsafeBufferPointer { buffer in
      while fed < total {
        framer.process(buffer) { event in
          events.append(Event(event))
          if bytesFedAtFirstEvent == nil { bytesFedAtFirstEvent = fed + buffer.count }
        }
        fed += buffer.count
      }
    }
    #expect(events == [.oversized])
    // Reported as soon as the limit is crossed, i.e. the line was never held whole.
    #expect((bytesFedAtFirstEvent ?? .max) <= limit + chunk.count)
    #expect(framer.events("]]]\n" + #"{"next":1}"# + "\n") == [.message(#"{"next":1}"#)])
  }

  @Test func messagesSplitAcrossReadsAreJoined() {
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(
      framer.events([Array(#"{"a"#.utf8), Array(#"":1}"#.utf8), Array("\n{".utf8), Array("}\n".utf8)]) == [
        .message(#"{"a":1}"#), .message("{}"),
      ])
  }

  @Test func manyLinesInOneRead() {
    let lines = (0..<1000).map { #"{"id":\#($0)}"# }
    var framer = LineFramer(maxMessageBytes: 100)
    #expect(framer.events(lines.joined(separator: "\n") + "\n") == lines.map(Event.message))
  }
}
