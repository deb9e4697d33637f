import Foundation
import Testing

/// One batch's answers are held and encoded as one message: their bytes are bounded
/// (`--max-batch-answer-bytes`), and past the bound the rest of the batch is not run.
@Suite struct BatchAnswerBoundEndToEndTests {
  func discover(_ id: Int) -> String { RPCLine.line(id, "rpc.discover") }

  @Test func tenThousandDiscoversInOneBatchStayBoundedAndAreEachAnswered() throws {
    let fixture = try StateFixture("batch-bytes")
    defer { fixture.remove() }
    let sidecar = try LiveSidecar([], environment: fixture.environment, workingDirectory: fixture.workingDirectory)
    let count = 10_000
    sidecar.send("[" + (1...count).map { discover($0) }.joined(separator: ",") + "]")
    let line = try #require(sidecar.readLine(timeout: 120))
    let peakKiB = Self.peakRSSKiB(sidecar.pid)
    #expect(sidecar.finish() == 0)

    let answers = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
    let ids = answers.compactMap { $0["id"] as? Int }
    #expect(ids.sorted() == Array(1...count), "every id answered exactly once")
    let results = answers.filter { $0["result"] != nil }.count
    let refused = answers.filter {
      (($0["error"] as? [String: Any])?["data"] as? [String: Any])?["reason"] as? String == "batch_answers_too_large"
    }
    #expect(results > 0 && results + refused.count == count)
    #expect(!refused.isEmpty)
    // 16 MiB of answers plus the process itself; unbounded, this batch took over 400 MB.
    #expect(peakKiB > 0 && peakKiB < 160 * 1024, "peak RSS \(peakKiB) KiB")
    print("10,000 rpc.discover in one batch: \(results) answered, \(refused.count) refused, peak RSS \(peakKiB) KiB, "
      + "answer \(line.utf8.count) bytes")
  }

  @Test func theBatchAnswerBoundIsConfigurable() throws {
    let output = try SidecarProcess.run(
      ["--max-batch-answer-bytes", "1024"],
      lines: ["[" + [discover(1), discover(2), #"{"jsonrpc":"2.0","method":"logout"}"#].joined(separator: ",") + "]"])
    let answers = try #require(
      try JSONSerialization.jsonObject(with: Data((output.lines.first ?? "").utf8)) as? [[String: Any]])
    #expect(answers.count == 2)
    #expect(answers.first?["result"] != nil)
    #expect(answers.last?.errorKind == "invalid_request")
  }

  static func peakRSSKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
