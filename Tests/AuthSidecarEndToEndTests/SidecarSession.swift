import Foundation

/// A running sidecar to talk to line by line, for tests that need the process alive between
/// messages (memory, signals, large inputs).
final class SidecarSession: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  /// Read side only: touched by the one thread that reads answers.
  private var buffered = Data()

  init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
    process.executableURL = SidecarProcess.binaryURL
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  func write(_ data: Data) { input.fileHandleForWriting.write(data) }
  func write(_ line: String) { write(Data((line + "\n").utf8)) }

  /// Reads the next answer line (blocking).
  func readLine() -> String? {
    while true {
      if let newline = buffered.firstIndex(of: 0x0A) {
        let line = buffered[buffered.startIndex..<newline]
        buffered = Data(buffered[(newline + 1)...])
        return String(decoding: line, as: UTF8.self)
      }
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { return nil }
      buffered.append(chunk)
    }
  }

  func readJSON() -> [String: Any] { SidecarProcess.json(readLine() ?? "") }

  /// Peak resident memory so far, in KiB (VmHWM).
  var peakRSSKiB: Int {
    let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// Closes stdin and waits; returns the exit status.
  func finish() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  func stderrText() -> String {
    String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }
}

func validateRequest(id: Int, username: String) -> String {
  #"{"jsonrpc":"2.0","id":\#(id),"method":"validate","params":{"username":"\#(username)"}}"#
}
