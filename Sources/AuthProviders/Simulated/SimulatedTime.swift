import AuthSupport

/// How the simulated server lets time pass (a slow answer, the polls of a device login). In test mode it passes on
/// the test clock, which moves forward at once: a transcript sent in lockstep, each request after the previous
/// answer, gets the same answer at the same clock time every run and needs no `test.advanceClock` to unblock it.
/// Without test mode it really waits.
package struct SimulatedTime: Sendable {
  package let clock: any Clock
  private let testClock: ManualClock?

  /// - Parameter testClock: test mode's clock; nil waits in real time.
  package init(clock: any Clock, testClock: ManualClock?) {
    self.clock = clock
    self.testClock = testClock
  }

  /// Lets `seconds` pass. Cancelling the task ends the wait (`CancellationError`).
  package func pass(_ seconds: Int64) async throws {
    if let testClock {
      try Task.checkCancellation()
      testClock.advance(by: seconds)
    } else {
      try await Task.sleep(for: .seconds(seconds))
    }
  }
}
