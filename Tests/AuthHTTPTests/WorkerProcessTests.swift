import AuthHTTP
import AuthSupport
import Foundation
import Testing

@testable import AuthHTTP

/// The worker as a process: where it is found, what it inherits, and that it never outlives its parent.
extension LiveServerTests {
  @Suite struct WorkerProcessTests {
    @Test func theWorkerIsFoundNextToTheRunningExecutable() {
      #expect(WorkerSpawn.executablePath(explicit: "/x/y") == "/x/y")
      let found = WorkerSpawn.executablePath(explicit: nil)
      #expect(found.hasSuffix("/auth-sidecar-http"))
      #expect(FileManager.default.isExecutableFile(atPath: found), "\(found)")
    }

    @Test func theWorkerGetsTheSocketAndStderrAndNoOtherDescriptor() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      // Opened without O_CLOEXEC, as a careless library would: it must still not reach the worker.
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("leak-\(UUID().uuidString)").path
      let leaky = open(path, O_CREAT | O_RDWR, 0o600)
      #expect(leaky >= 0)
      defer {
        close(leaky)
        unlink(path)
      }
      let client = WorkerHTTPClient(policy: .quick(), log: .disabled)
      _ = try await client.send(HTTPRequest(url: server.url("/json")))
      let pid = try #require(client.workerProcessID)
      let descriptors = ProcessProbe.descriptors(of: pid)
      #expect(descriptors[0]?.hasPrefix("socket:") == true)
      #expect(descriptors[1] == descriptors[0])
      #expect(!descriptors.values.contains(path))
      // Nothing else of ours either: no descriptor above stderr is a pipe, socket or file this process holds
      // (the fixture server's pipes, say). The worker's own (libcurl's sockets, eventfds) are its business.
      // (`anon_inode:[eventfd]` names a kind, not an object, so only pipes, sockets and paths compare.)
      let identifying: (String) -> Bool = { $0.hasPrefix("pipe:") || $0.hasPrefix("socket:") || $0.hasPrefix("/") }
      let ours = Set(ProcessProbe.descriptors(of: getpid()).values.filter(identifying))
      let inherited = descriptors.filter { $0.key > 2 && ours.contains($0.value) }
      #expect(inherited.isEmpty, "\(inherited)")
    }

    @Test func theWorkerExitsWhenItsClientIsReleased() async throws {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      var client: WorkerHTTPClient? = WorkerHTTPClient(policy: .quick(), log: .disabled)
      _ = try await client?.send(HTTPRequest(url: server.url("/json")))
      let pid = try #require(client?.workerProcessID)
      client = nil
      #expect(try await ProcessProbe.waitUntilGone(pid))
    }

    /// PR_SET_PDEATHSIG: a parent killed -9 takes the worker with it, even while something else keeps the
    /// worker's stdin open (so end of input never comes).
    @Test func theWorkerDiesWithItsParentEvenWhenItsStdinStaysOpen() async throws {
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      // `sleep` holds the pipe to the worker's stdin and outlives the shell; `$!` is the worker's pid.
      shell.arguments = ["-c", #"sleep 5 | "$0" & echo $!; wait"#, WorkerSpawn.executablePath(explicit: nil)]
      let output = Pipe()
      shell.standardOutput = output
      try shell.run()
      let line = try await Blocking.run { () -> String in
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
          let chunk = output.fileHandleForReading.availableData
          if chunk.isEmpty { break }
          bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
      }
      let worker = try #require(Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)))
      // Let it reach its prctl before the parent goes.
      try await Task.sleep(for: .milliseconds(300))
      #expect(!ProcessProbe.isGone(worker))
      kill(shell.processIdentifier, SIGKILL)
      shell.waitUntilExit()
      #expect(try await ProcessProbe.waitUntilGone(worker))
    }
  }
}
