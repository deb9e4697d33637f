import Synchronization
import Testing

@testable import AuthSupport

@Suite(.timeLimit(.minutes(1))) struct CompletionTests {
  @Test func everyWaiterReturnsOnceSignalled() async {
    let completion = Completion()
    let waiters = (0..<3).map { _ in Task { await completion.wait(interruptible: false) } }
    completion.signal()
    for waiter in waiters { await waiter.value }
  }

  @Test func aWaitAfterTheSignalReturnsAtOnce() async {
    let completion = Completion()
    completion.signal()
    await completion.wait(interruptible: false)
    await completion.wait(interruptible: true)
  }

  @Test func anInterruptibleWaitEndsWhenItsTaskIsCancelled() async {
    let completion = Completion()
    let waiter = Task { await completion.wait(interruptible: true) }
    waiter.cancel()
    await waiter.value
  }

  /// A write after an answer that a reader must wait for, whether or not the reader is cancelled meanwhile.
  @Test func anUninterruptibleWaitOutlivesCancellation() async throws {
    let completion = Completion()
    let signalled = Mutex(false)
    let waiter = Task {
      await completion.wait(interruptible: false)
      return signalled.withLock { $0 }
    }
    waiter.cancel()
    try await Task.sleep(for: .milliseconds(20))
    signalled.withLock { $0 = true }
    completion.signal()
    #expect(await waiter.value, "returned only after the signal")
  }
}
