import Testing

@testable import AuthTransport

@Suite struct FramerTests {
  static let lspInput = "Content-Length: 2\r\n\r\n{}" + "Content-Length: 7\r\n\r\n[1,2,3]"
  static let lspExpected: [Event] = [.framingDetected(.lsp), .message("{}"), .message("[1,2,3]")]
  static let lineInput = "{}\n[1,2,3]\n"
  static let lineExpected: [Event] = [.framingDetected(.ndjson), .message("{}"), .message("[1,2,3]")]

  @Test func autoDetectsLines() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events(Self.lineInput) == Self.lineExpected)
  }

  @Test func autoDetectsLSP() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events(Self.lspInput) == Self.lspExpected)
  }

  @Test func autoDetectsLSPCaseInsensitively() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events("content-length: 2\r\n\r\n{}") == [.framingDetected(.lsp), .message("{}")])
    var upper = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(upper.events("CONTENT-LENGTH: 2\r\n\r\n{}") == [.framingDetected(.lsp), .message("{}")])
  }

  @Test(arguments: ["\n\n", "\r\n\r\n", "\n \n\t\n", "  ", " \r\n"])
  func leadingBlankLinesBeforeEitherFraming(blank: String) {
    // Leading white space never reaches a framer: the same input gives the same messages
    // whether the blank part arrives in its own read or with the first message.
    var lsp = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(lsp.events(blank + Self.lspInput) == Self.lspExpected)
    var lines = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(lines.events(blank + Self.lineInput) == Self.lineExpected)
    var lspInTwoReads = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(lspInTwoReads.events([Array(blank.utf8), Array(Self.lspInput.utf8)]) == Self.lspExpected)
    var linesInTwoReads = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(linesInTwoReads.events([Array(blank.utf8), Array(Self.lineInput.utf8)]) == Self.lineExpected)
  }

  @Test func detectionSurvivesAnySplit() {
    for input in [Self.lspInput, "\r\n" + Self.lspInput] {
      for chunks in Chunking.everySplit(Array(input.utf8)) {
        var framer = Framer(mode: .auto, maxMessageBytes: 100)
        #expect(framer.events(chunks) == Self.lspExpected, "split at \(chunks[0].count)")
      }
      var bytes = Framer(mode: .auto, maxMessageBytes: 100)
      #expect(bytes.events(Chunking.bytes(Array(input.utf8))) == Self.lspExpected)
    }
    for chunks in Chunking.everySplit(Array(("\n" + Self.lineInput).utf8)) {
      var framer = Framer(mode: .auto, maxMessageBytes: 100)
      #expect(framer.events(chunks) == Self.lineExpected, "split at \(chunks[0].count)")
    }
  }

  @Test func blankOnlyInputDecidesNothing() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events("\n\r\n  \n") == [])
  }

  @Test func aPrefixOfTheHeaderWaitsThenDecides() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events("Content-Len", finish: false) == [])
    #expect(framer.events("gth: 2\r\n\r\n{}") == [.framingDetected(.lsp), .message("{}")])
  }

  @Test func aLineThatOnlyLooksLikeAHeaderStartIsALine() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(
      framer.events("Content-Type: x\n{}\n") == [
        .framingDetected(.ndjson), .message("Content-Type: x"), .message("{}"),
      ])
  }

  @Test func inputEndingWhileUndecidedIsStillDelivered() {
    // "Cont" could start a header; when input ends there it is a (broken) line that must be answered.
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events("Cont") == [.framingDetected(.ndjson), .message("Cont")])
  }

  @Test func explicitModesDoNotSniff() {
    var lines = Framer(mode: .ndjson, maxMessageBytes: 100)
    #expect(lines.events("Content-Length: 2\n{}\n") == [.message("Content-Length: 2"), .message("{}")])
    var lsp = Framer(mode: .lsp, maxMessageBytes: 100)
    #expect(lsp.events(Self.lspInput) == [.message("{}"), .message("[1,2,3]")])
  }

  @Test func limitsApplyAfterDetection() {
    var lines = Framer(mode: .auto, maxMessageBytes: 4)
    #expect(lines.events("[1,2,3]\n{}\n") == [.framingDetected(.ndjson), .oversized, .message("{}")])
    var lsp = Framer(mode: .auto, maxMessageBytes: 4)
    #expect(lsp.events(Self.lspInput) == [.framingDetected(.lsp), .message("{}"), .oversized])
  }

  @Test func lastLineWithoutNewlineAfterDetection() {
    var framer = Framer(mode: .auto, maxMessageBytes: 100)
    #expect(framer.events("{}\n[]") == [.framingDetected(.ndjson), .message("{}"), .message("[]")])
  }
}
