import AuthHTTP
import AuthHTTPURLSession
import AuthSupport
import Foundation

/// The Python fake server (`Fixtures/http_server.py`) in a child process, on a loopback address and
/// a free port it picks itself. It exits when its stdin closes, so it cannot outlive the tests.
final class FixtureServer: @unchecked Sendable {
  // `process` and `input` are used only by `start` and then `stop`, which a test calls in order.
  private let process: Process
  private let input: Pipe
  let scheme: String
  let host: String
  let port: Int

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/http_server.py").path

  /// The interpreter behind `python3` on PATH, found once: version-manager shims (pyenv) cost a
  /// tenth of a second per start otherwise.
  private static let python = Task { () throws -> String in
    try await Blocking.run {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw FixtureError("python3 is not on PATH") }
      return path.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  private init(process: Process, input: Pipe, scheme: String, host: String, port: Int) {
    self.process = process
    self.input = input
    self.scheme = scheme
    self.host = host
    self.port = port
  }

  /// - Parameter certificate: serve HTTPS with this certificate and key.
  static func start(host: String = "127.0.0.1", certificate: SelfSignedCertificate? = nil) async throws
    -> FixtureServer
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try await python.value)
    process.arguments = [script, host] + (certificate.map { [$0.certificatePath, $0.keyPath] } ?? [])
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // The first line is "PORT <n>"; reading it blocks, so off the cooperative pool.
    let line = try await Blocking.run { () -> String in
      var bytes: [UInt8] = []
      while !bytes.contains(UInt8(ascii: "\n")) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        bytes += chunk
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      process.terminate()
      throw FixtureError("fixture server did not start: \(line)")
    }
    let scheme = certificate == nil ? "http" : "https"
    return FixtureServer(process: process, input: input, scheme: scheme, host: host, port: port)
  }

  func url(_ pathAndQuery: String) -> String { "\(scheme)://\(host):\(port)\(pathAndQuery)" }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.terminate()
    process.waitUntilExit()
  }

  /// How many requests carried `key=<key>` ("*": all requests) so far.
  func count(_ key: String) async throws -> Int {
    try await number("/count?of=\(key)", field: "count")
  }

  /// Waits until a request with `key=<key>` has reached the server (a hang guard of 30 s fails the wait): the
  /// barrier before cancelling or killing "mid-request", which would otherwise test an unsent request on a busy
  /// machine.
  func waitForRequest(_ key: String) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await count(key) == 0 {
      guard ContinuousClock.now < deadline else { throw FixtureError("no request with key=\(key) arrived") }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// How many body bytes `/big?key=<key>` wrote before the client hung up (waits for it to finish).
  func bytesSent(_ key: String) async throws -> Int {
    for _ in 0..<100 {
      let sent = try await number("/sent?of=\(key)", field: "sent")
      if sent >= 0 { return sent }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw FixtureError("/big?key=\(key) never finished writing")
  }

  private func number(_ path: String, field: String) async throws -> Int {
    let response = try await URLSessionHTTPClient(log: .disabled).send(HTTPRequest(url: url(path)))
    let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    guard let value = object?[field] as? Int else { throw FixtureError("no \(field) in the answer to \(path)") }
    return value
  }
}

struct FixtureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A throwaway certificate for CN=localhost, made with the openssl command line at test time.
struct SelfSignedCertificate: Sendable {
  let certificatePath: String
  let keyPath: String

  static func make() async throws -> SelfSignedCertificate {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authhttp-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let certificate = SelfSignedCertificate(
      certificatePath: directory.appendingPathComponent("cert.pem").path,
      keyPath: directory.appendingPathComponent("key.pem").path)
    let status = try await Blocking.run { () -> Int32 in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
        "-keyout", certificate.keyPath, "-out", certificate.certificatePath,
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    }
    guard status == 0 else { throw FixtureError("openssl req failed with status \(status)") }
    return certificate
  }

  func remove() {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: certificatePath).deletingLastPathComponent())
  }
}
