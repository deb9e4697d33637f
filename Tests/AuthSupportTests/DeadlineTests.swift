import AuthSupport
import Synchronization
import Testing

/// The deadlines here are either far away (an hour: a hang guard, never reached) or already over (zero), so no
/// outcome depends on how fast the machine is.
@Suite struct DeadlineTests {
  private struct Boom: Error, Equatable {}

  /// Set once the work saw its cancellation.
  private final class Flag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
  }

  /// Waits until cancelled, then records that it was.
  private static func waitForCancellation(_ cancelled: Flag) async throws -> Int {
    await withTaskCancellationHandler {
      try? await Task.sleep(for: .seconds(3600))
    } onCancel: {
      cancelled.set()
    }
    throw CancellationError()
  }

  @Test func workThatFinishesFirstGivesItsResult() async throws {
    #expect(try await withDeadline(.seconds(3600)) { 42 } == 42)
  }

  @Test func workThatFailsFirstThrowsItsError() async throws {
    await #expect(throws: Boom()) { _ = try await withDeadline(.seconds(3600)) { () throws -> Int in throw Boom() } }
  }

  @Test func aPassedDeadlineGivesNilAndCancelsTheWork() async throws {
    let cancelled = Flag()
    let result = try await withDeadline(.zero) { try await Self.waitForCancellation(cancelled) }
    #expect(result == nil)
    // The work was cancelled and awaited before `withDeadline` returned.
    #expect(cancelled.isSet)
  }

  @Test func cancellingTheCallerThrowsCancellation() async throws {
    let (started, starting) = AsyncStream<Void>.makeStream()
    let cancelled = Flag()
    let call = Task {
      try await withDeadline(.seconds(3600)) {
        starting.yield()
        return try await Self.waitForCancellation(cancelled)
      }
    }
    for await _ in started { break }
    call.cancel()
    await #expect(throws: CancellationError.self) { _ = try await call.value }
    #expect(cancelled.isSet)
  }
}
