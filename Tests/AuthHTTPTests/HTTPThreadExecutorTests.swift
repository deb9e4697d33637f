import AuthHTTP
import AuthSupport
import Foundation
import Testing

@testable import AuthHTTP

extension LiveServerTests {
  @Suite struct HTTPThreadExecutorTests {
    /// The kernel id of the calling thread, from /proc/thread-self (a link to `<pid>/task/<tid>`).
    static func currentThreadID() throws -> Int32 {
      let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
      return try #require(Int32(target.split(separator: "/").last ?? ""))
    }

    /// The engine's thread, started by a first request.
    static func startedEngine() async throws -> (CurlEngine, any TaskExecutor) {
      let server = try await FixtureServer.start()
      defer { server.stop() }
      _ = try await CurlHTTPClient(log: .disabled).send(HTTPRequest(url: server.url("/json")))
      let engine = try CurlEngine.shared.get()
      return (engine, try #require(CurlHTTPClient.preferredExecutor, "no executor once the engine runs"))
    }

    @Test func aTaskThatPrefersTheHTTPThreadRunsThereAndIsResumedThereByItsAnswers() async throws {
      let (engine, executor) = try await Self.startedEngine()
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(log: .disabled)
      let threads = try await Task(executorPreference: executor) {
        var seen = [try Self.currentThreadID()]
        for _ in 0..<3 {
          let response = try await client.send(HTTPRequest(url: server.url("/json")))
          #expect(response.status == 200)
          seen.append(try Self.currentThreadID())
        }
        return seen
      }.value
      let httpThread = engine.threadID.load(ordering: .acquiring)
      #expect(threads == Array(repeating: httpThread, count: 4))
    }

    /// The reader that parsed a request sends it itself: the task runs on the starting thread up to its first
    /// wait, and its answer resumes it on the HTTP thread.
    @Test func aTaskStartedHereRunsOnTheStartingThreadUntilItWaitsThenOnTheHTTPThread() async throws {
      let (engine, executor) = try await Self.startedEngine()
      let starting = try #require(executor as? any StartingThreadExecutor)
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(log: .disabled)
      let caller = try Self.currentThreadID()
      let task = starting.startHere {
        Task(executorPreference: executor) { () async throws -> [Int32] in
          let first = try Self.currentThreadID()
          let response = try await client.send(HTTPRequest(url: server.url("/json")))
          #expect(response.status == 200)
          return [first, try Self.currentThreadID()]
        }
      }
      let threads = try await task.value
      #expect(threads == [caller, engine.threadID.load(ordering: .acquiring)])
    }

    /// Jobs come from every thread (the reader starting tasks, `Blocking` resuming them): each reaches the HTTP
    /// thread whether it is waiting in epoll or busy, and none is lost.
    @Test func tasksStartedFromManyThreadsAtOnceAllRunOnTheHTTPThread() async throws {
      let (engine, executor) = try await Self.startedEngine()
      let server = try await FixtureServer.start()
      defer { server.stop() }
      let client = CurlHTTPClient(log: .disabled)
      let httpThread = engine.threadID.load(ordering: .acquiring)
      let threads = try await withThrowingTaskGroup(of: [Int32].self) { group in
        for index in 0..<64 {
          group.addTask {
            // Half of them also wait for the network in between, so jobs arrive while the thread is busy too.
            try await Task(executorPreference: executor) {
              let first = try Self.currentThreadID()
              if index.isMultiple(of: 2) { _ = try await client.send(HTTPRequest(url: server.url("/json"))) }
              await Task.yield()
              return [first, try Self.currentThreadID()]
            }.value
          }
        }
        return try await group.reduce(into: []) { $0 += $1 }
      }
      #expect(threads.count == 128)
      #expect(threads.allSatisfy { $0 == httpThread })
    }
  }
}
