import AuthHTTP
import AuthSupport
import Foundation
import Testing

@testable import AuthHTTP

/// The worker binary spoken to line by line, as a sidecar of another build or a buggy one would.
extension LiveServerTests {
  @Suite struct WorkerWireTests {
    /// The worker on pipes, with its stdout read line by line.
    final class RawWorker {
      let process = Process()
      let input = Pipe()
      let output = Pipe()
      private var buffer: [UInt8] = []

      init() throws {
        process.executableURL = URL(fileURLWithPath: WorkerSpawn.executablePath(explicit: nil))
        process.standardInput = input
        process.standardOutput = output
        try process.run()
      }

      func write(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
      func write(_ message: WorkerMessage) { input.fileHandleForWriting.write(Data(message.line)) }

      /// The next non-log message.
      func read() throws -> WorkerMessage? {
        while true {
          while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer += chunk
          }
          let newline = buffer.firstIndex(of: UInt8(ascii: "\n"))!
          let line = Array(buffer[..<newline])
          buffer.removeFirst(newline + 1)
          let message = try WorkerMessage(line: line)
          if case .log = message { continue }
          return message
        }
      }

      func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
      }
    }

    @Test func requestsTheWorkerRefusesAreAnsweredAndItCarriesOn() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let result = try await Blocking.run { () throws -> ([String], Int32) in
        let worker = try RawWorker()
        worker.write(.hello(policy: .quick(), logLevel: .error))
        // Refused in the worker before it suspends: answered by a task that ends before it is registered.
        worker.write(.send(id: 1, request: HTTPRequest(url: "ftp://example.com/")))
        worker.write(#"{"type":"send","id":2,"url":"https://example.com/"}"#)
        worker.write("not json")
        worker.write(#"{"type":"nonsense","id":3}"#)
        worker.write(.send(id: 4, request: HTTPRequest(url: server.url("/json"))))
        var answers: [String] = []
        for _ in 0..<4 {
          switch try worker.read() {
          case .failure(let id, let error)?: answers.append("\(id) \(error.code)")
          case .response(let id, let response)?: answers.append("\(id) \(response.status)")
          default: answers.append("?")
          }
        }
        return (answers.sorted(), worker.finish())
      }
      #expect(result.0 == ["1 invalidURL", "2 invalidRequest", "3 invalidRequest", "4 200"])
      #expect(result.1 == 0)
    }

    @Test func aHelloOfAnotherVersionIsRefused() async throws {
      let status = try await Blocking.run { () throws -> Int32 in
        let worker = try RawWorker()
        worker.write(#"{"type":"hello","version":999}"#)
        return worker.finish()
      }
      #expect(status == 2)
    }

    @Test func theWorkerExitsAtEndOfInputEvenBeforeItsHello() async throws {
      let status = try await Blocking.run { () throws -> Int32 in try RawWorker().finish() }
      #expect(status == 0)
    }
  }
}
