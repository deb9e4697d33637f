import Foundation

/// `Tests/Servers/connect_proxy.py` in a child process: a CONNECT proxy on 127.0.0.1 that tunnels every host to
/// loopback and writes each request line it receives to a log, which `requestLines` reads back.
final class ConnectProxy: @unchecked Sendable {
  // `process` and `input` are used only by `start` and then `stop`, which a test calls in order.
  private let process: Process
  private let input: Pipe
  private let logPath: String
  let port: Int

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Servers/connect_proxy.py").path

  private init(process: Process, input: Pipe, logPath: String, port: Int) {
    self.process = process
    self.input = input
    self.logPath = logPath
    self.port = port
  }

  static func start() async throws -> ConnectProxy {
    let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString).log").path
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    let (process, input, port) = try await FixtureServer.launch(script, [logPath])
    return ConnectProxy(process: process, input: input, logPath: logPath, port: port)
  }

  var url: String { "http://127.0.0.1:\(port)" }

  /// Every request line the proxy received so far (`CONNECT auth.test:443 HTTP/1.1`, …).
  var requestLines: [String] {
    ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.terminate()
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: logPath)
  }
}
