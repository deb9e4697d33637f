import Foundation
import Glibc

/// Another process running one test of this very binary, for what threads cannot show: per-process resource
/// limits, and SQLite and flock locking between processes rather than between connections of one process.
///
/// A fresh exec rather than fork(): forking a process whose other threads may hold SQLite's or the runtime's
/// locks can deadlock the child. The child test checks its environment variable and does nothing without it.
struct ChildProcess {
  private let process: Process
  private let errors: Pipe
  /// The child's stdout, when asked for (it also carries the test harness's own lines).
  let output: Pipe?

  /// Starts `--filter <test>` of this test binary with `environment` added.
  init(test: String, environment: [String: String], captureOutput: Bool = false) throws {
    process = Process()
    process.executableURL = URL(
      fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    process.arguments = ["--testing-library", "swift-testing", "--filter", test]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    output = captureOutput ? Pipe() : nil
    process.standardOutput = output ?? FileHandle.nullDevice
    errors = Pipe()
    process.standardError = errors
    try process.run()
  }

  func kill(_ signal: Int32) { Glibc.kill(process.processIdentifier, signal) }

  /// Waits (killing the child after `timeout` seconds) and returns its exit status and the tail of its stderr.
  func wait(timeout: Double = 60) -> (status: Int32, stderr: String) {
    let process = self.process
    let killer = DispatchWorkItem { process.terminate() }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    return (process.terminationStatus, String(String(decoding: stderr, as: UTF8.self).suffix(600)))
  }
}

/// Ends a child test process with `status`, skipping the test harness's own reporting and exit path.
func exitChild(_ status: Int32, _ message: String = "") -> Never {
  if !message.isEmpty { FileHandle.standardError.write(Data("child: \(message)\n".utf8)) }
  _exit(status)
}
