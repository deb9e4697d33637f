import Foundation
import Testing

/// The bad-input bars: each input gets its answer, the next request is served, memory stays
/// bounded.
@Suite struct RobustnessEndToEndTests {
  @Test func hundredMegabyteLineWithoutNewlineIsSkippedWithoutBuffering() throws {
    let session = try SidecarSession()
    let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
    for _ in 0..<100 { session.write(chunk) }
    let refusal = session.readJSON()
    #expect((refusal["error"] as? [String: Any])?["code"] as? Int == -32600)
    session.write("")  // ends the long line
    session.write(validateRequest(id: 2, username: "after"))
    #expect(session.readJSON()["id"] as? Int == 2)
    // A buffered 100 MB line would need > 100 MB; a bounded framer stays near its baseline.
    #expect(session.peakRSSKiB < 40_000, "peak RSS \(session.peakRSSKiB) KiB")
    #expect(session.finish() == 0)
  }

  @Test func hundredThousandOpeningBracketsAreAParseError() throws {
    let session = try SidecarSession()
    session.write(String(repeating: "[", count: 100_000))
    #expect((session.readJSON()["error"] as? [String: Any])?["code"] as? Int == -32700)
    session.write(validateRequest(id: 2, username: "after"))
    #expect(session.readJSON()["id"] as? Int == 2)
    #expect(session.finish() == 0)
  }

  @Test func invalidUTF8AndNULBytesAreParseErrors() throws {
    let session = try SidecarSession()
    for bad in [Data([0xFF, 0xFE, 0x0A]), Data([0x00, 0x00, 0x0A]), Data(#"{"a":"\#u{0}"}"#.utf8) + Data([0x0A]),
      Data([0x7B, 0x22, 0xC0, 0xAF, 0x22, 0x3A, 0x31, 0x7D, 0x0A])]
    {
      session.write(bad)
      #expect((session.readJSON()["error"] as? [String: Any])?["code"] as? Int == -32700)
    }
    session.write(validateRequest(id: 9, username: "after"))
    #expect(session.readJSON()["id"] as? Int == 9)
    #expect(session.finish() == 0)
  }

  @Test func batchOfTenThousandRequestsIsAnsweredInOneLine() throws {
    let session = try SidecarSession()
    let batch = "[" + (0..<10_000).map { validateRequest(id: $0, username: "user\($0 % 100)") }.joined(separator: ",") + "]"
    session.write(batch)
    let line = session.readLine() ?? ""
    let answers = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [[String: Any]] ?? []
    #expect(answers.count == 10_000)
    #expect(answers.enumerated().allSatisfy { $0.element["id"] as? Int == $0.offset })
    session.write(validateRequest(id: 10_001, username: "after"))
    #expect(session.readJSON()["id"] as? Int == 10_001)
    #expect(session.finish() == 0)
  }

  @Test func batchOverTheLimitIsRefusedWhole() throws {
    let session = try SidecarSession(["--max-batch", "100"])
    session.write("[" + (0..<101).map { validateRequest(id: $0, username: "u") }.joined(separator: ",") + "]")
    let refusal = session.readJSON()
    #expect((refusal["error"] as? [String: Any])?["code"] as? Int == -32600)
    #expect(session.finish() == 0)
  }

  @Test func manyBadMessagesKeepMemoryBounded() throws {
    let session = try SidecarSession()
    let garbage = (0..<20_000).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"nope\",\"params\":{\"x\":[\($0)]}}" }
    // Write from another thread: the answers (3 MB) outgrow the pipe while we are still writing.
    let input = Data((garbage.joined(separator: "\n") + "\n").utf8)
    let writer = Thread { session.write(input) }
    writer.start()
    for _ in 0..<20_000 { _ = session.readLine() }
    #expect(session.peakRSSKiB < 40_000, "peak RSS \(session.peakRSSKiB) KiB")
    #expect(session.finish() == 0)
  }
}
