#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Testing

@testable import AuthSupport

@Suite struct BlockingTests {
  /// The nice value of the calling thread: on Linux, PRIO_PROCESS with 0 names the calling thread, not the process.
  static func currentNice() -> Int32 {
    errno = 0
    return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
  }

  @Test func cpuBoundWorkRunsAtTheLowestPriorityAndLeavesTheCallerAlone() async throws {
    let callerBefore = Self.currentNice()
    let worker = try await Blocking.runCPUBound { Self.currentNice() }
    #expect(worker == 19)
    #expect(Self.currentNice() == callerBefore)
    #expect(callerBefore < 19)
  }

  /// Store work may hold the store's write lock: starved at nice 19 on a busy machine, it would stall everyone else.
  @Test func storeWorkKeepsTheProcessPriority() async throws {
    let callerBefore = Self.currentNice()
    let worker = try await Blocking.run { Self.currentNice() }
    #expect(worker == callerBefore)
    #expect(worker < 19)
  }

  @Test func aPoolWithoutNiceKeepsTheProcessPriority() async {
    let pool = ThreadPool(maxThreads: 1)
    let process = Self.currentNice()
    let worker = await withCheckedContinuation { continuation in
      pool.submit { continuation.resume(returning: Self.currentNice()) }
    }
    #expect(worker == process)
  }
}
