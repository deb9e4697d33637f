import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// How the sidecar ends when the host stops reading: SIGTERM while it is blocked writing an answer, a closed
/// stdout.
@Suite struct StreamEndEndToEndTests {
  static func discover(_ id: Int) -> String { RPCLine.line(id, "rpc.discover") }

  /// Whether a thread of `pid` sleeps in a pipe write (the kernel's wait channel says so).
  static func blockedInPipeWrite(_ pid: Int32) -> Bool {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.contains { task in
      let channel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? ""
      return channel.contains("pipe_write") || channel.contains("pipe_wait")
    }
  }

  @Test func sigtermWhileTheHostDoesNotReadStillExits() throws {
    let fixture = try StateFixture("sigterm-blocked")
    defer { fixture.remove() }
    let sidecar = try LiveSidecar([], environment: fixture.environment, workingDirectory: fixture.workingDirectory)
    // Each answer is the whole OpenRPC document (tens of KB): a few fill the pipe, and nobody reads it.
    for id in 1...40 { sidecar.send(Self.discover(id)) }
    var waited = 0
    while !Self.blockedInPipeWrite(sidecar.pid), waited < 3_000 {
      usleep(10_000)
      waited += 1
    }
    #expect(Self.blockedInPipeWrite(sidecar.pid), "the sidecar never blocked writing to stdout")
    kill(sidecar.pid, SIGTERM)
    // The drain bound is 10 s; the guard only keeps a hung sidecar from hanging the suite.
    let exited = sidecar.exitsWithin(guardSeconds: 60)
    if !exited { sidecar.kill9() }
    #expect(exited, "still running 60 s after SIGTERM")
    #expect(sidecar.process.terminationReason == .exit)
  }

  @Test func aClosedStdoutEndsTheProcessAndRunsNoLaterRequest() throws {
    let fixture = try StateFixture("closed-stdout")
    defer { fixture.remove() }
    let sidecar = try LiveSidecar(
      StateFixture.cheapKDF, environment: fixture.environment, workingDirectory: fixture.workingDirectory)
    sidecar.send(RPCLine.line(1, "status"))
    #expect(sidecar.readAnswer()?.result != nil)
    sidecar.closeOutput()
    sidecar.send(RPCLine.line(2, "register", ["username": "afterclose", "password": "correct horse battery"]))
    // Stdin stays open: the sidecar must notice on its own that nobody can read its answers.
    let exited = sidecar.exitsWithin(guardSeconds: 60)
    if !exited { _ = sidecar.finish() }
    #expect(exited, "still running 60 s after its stdout was closed")

    let list = try LiveSidecar(
      ["users", "list"] + StateFixture.cheapKDF, environment: fixture.environment,
      workingDirectory: fixture.workingDirectory)
    list.closeInput()
    let listed = list.readToEnd().joined(separator: "\n")
    #expect(list.finish() == 0)
    #expect(!listed.contains("afterclose"), "the request sent after stdout closed was executed")
  }
}
