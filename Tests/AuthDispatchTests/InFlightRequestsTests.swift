import AuthJSON
import AuthProtocol
import Foundation
import Testing

@testable import AuthDispatch
@testable import AuthSession

@Suite struct InFlightRequestsTests {
  /// Polls until `condition` holds (at most 5 s).
  static func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<5_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
  }

  /// A barrier for "nothing ran yet": starts an independent request after the others and waits until it has run.
  /// `start` orders a request against its profile's earlier ones before it returns, and a task started after
  /// theirs has had its turn: had one of them not been held back, it would have run by now.
  static func barrier(_ requests: InFlightRequests, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let ran = EventLog()
    let started = requests.start(id: nil, profile: nil, plan: CallPlan(ordering: .independent)) {
      ran.append("barrier")
      return nil
    }
    try #require(started, "the barrier was refused", sourceLocation: sourceLocation)
    try await eventually { !ran.all.isEmpty }
    try #require(!ran.all.isEmpty, "the barrier never ran", sourceLocation: sourceLocation)
  }

  @Test func startRefusesPastTheLimit() async throws {
    let requests = InFlightRequests(limit: 2)
    let gates = Gates()
    for id in ["1", "2"] {
      let started = requests.start(id: .number(id), profile: nil, plan: CallPlan(ordering: .independent)) {
        try? await gates.wait("g")
        return nil
      }
      #expect(started)
    }
    #expect(!requests.start(id: .number("3"), profile: nil, plan: CallPlan(ordering: .independent)) { nil })
    #expect(requests.count == 2)
    gates.open("g")
    try await Self.eventually { requests.count == 0 }
    #expect(requests.count == 0)
    #expect(requests.start(id: .number("4"), profile: nil, plan: CallPlan(ordering: .independent)) { nil })
  }

  /// What a request leaves for after its answer (`AfterAnswer`, a login's user write) runs once the answer is
  /// delivered; until it is done the request stays in flight (a shutdown waits for it) and the profile's later
  /// requests wait for it.
  @Test func workAfterTheAnswerRunsAfterDeliveryAndKeepsTheRequestInFlight() async throws {
    let requests = InFlightRequests(limit: 10)
    let log = EventLog()
    let gates = Gates()
    let started = requests.start(id: .number("1"), profile: "p", plan: CallPlan(ordering: .changesSession)) {
      await AfterAnswer.run {
        log.append("after")
        try? await gates.wait("after")
        log.append("after done")
      }
      log.append("answered")
      return .result(id: .number("1"), EncodedJSON.null)
    } deliver: { _ in
      log.append("delivered")
    }
    #expect(started)
    try await Self.eventually { log.all.contains("after") }
    #expect(log.all == ["answered", "delivered", "after"])
    _ = requests.start(id: nil, profile: "p", plan: CallPlan(ordering: .readsSession)) {
      log.append("read")
      return nil
    }
    try await Self.barrier(requests)
    #expect(log.all.count == 3, "the profile's next request waits for the work after the answer")
    #expect(requests.count == 2, "the request is in flight until that work is done")
    gates.open("after")
    try await Self.eventually { requests.count == 0 }
    #expect(log.all == ["answered", "delivered", "after", "after done", "read"])
  }

  @Test func theSlotIsFreeWhileTheAnswerIsDeliveredButTheEntryRemains() async throws {
    let requests = InFlightRequests(limit: 1)
    let seen = EventLog()
    let started = requests.start(id: .number("1"), profile: nil, plan: CallPlan(ordering: .independent)) {
      .result(id: .number("1"), EncodedJSON.null)
    } deliver: { _ in
      // The host reads this answer and sends its next request at once.
      let admitted = requests.start(id: .number("2"), profile: nil, plan: CallPlan(ordering: .independent)) { nil }
      seen.append(admitted ? "admitted" : "refused")
      seen.append("entries \(requests.count)")
    }
    #expect(started)
    try await Self.eventually { seen.all.count == 2 }
    #expect(seen.all.first == "admitted")
    #expect(seen.all.last != "entries 0", "drain still sees the delivering request")
  }

  @Test func sessionChangesOfAProfileRunOneAtATimeInArrivalOrder() async throws {
    let requests = InFlightRequests(limit: 10)
    let log = EventLog()
    let gates = Gates()
    _ = requests.start(id: nil, profile: "p", plan: CallPlan(ordering: .changesSession)) {
      try? await gates.wait("first")
      log.append("p1")
      return nil
    }
    _ = requests.start(id: nil, profile: "p", plan: CallPlan(ordering: .changesSession)) {
      log.append("p2")
      return nil
    }
    _ = requests.start(id: nil, profile: "q", plan: CallPlan(ordering: .changesSession)) {
      log.append("q1")
      return nil
    }
    _ = requests.start(id: nil, profile: "p", plan: CallPlan(ordering: .independent)) {
      log.append("p independent")
      return nil
    }
    try await Self.eventually { log.all.count == 2 }
    #expect(Set(log.all) == ["q1", "p independent"])
    gates.open("first")
    try await Self.eventually { log.all.count == 4 }
    #expect(log.all.suffix(2) == ["p1", "p2"])
  }

  @Test func readsWaitForEarlierChangesAndChangesWaitForEarlierReads() async throws {
    let requests = InFlightRequests(limit: 10)
    let log = EventLog()
    let gates = Gates()
    func start(_ name: String, _ ordering: SessionOrdering, gate: String? = nil) {
      _ = requests.start(id: nil, profile: "p", plan: CallPlan(ordering: ordering)) {
        if let gate { try? await gates.wait(gate) }
        log.append(name)
        return nil
      }
    }
    start("change 1", .changesSession, gate: "change 1")
    start("read 1", .readsSession, gate: "read 1")
    start("read 2", .readsSession)
    start("change 2", .changesSession)
    start("read 3", .readsSession)
    try await Self.barrier(requests)
    #expect(log.all.isEmpty, "everything waits for the first change")
    gates.open("change 1")
    try await Self.eventually { log.all.count == 2 }
    #expect(log.all == ["change 1", "read 2"], "reads run concurrently once the change is done")
    try await Self.barrier(requests)
    #expect(log.all.count == 2, "the second change waits for read 1")
    gates.open("read 1")
    try await Self.eventually { log.all.count == 5 }
    #expect(log.all.suffix(3) == ["read 1", "change 2", "read 3"])
  }

  @Test func cancelReachesEveryTaskWithTheID() async throws {
    let requests = InFlightRequests(limit: 10)
    let log = EventLog()
    for _ in 0..<2 {
      _ = requests.start(id: .string("dup"), profile: nil, plan: CallPlan(ordering: .independent)) {
        do {
          try await Task.sleep(for: .seconds(60))
        } catch {
          log.append("cancelled")
        }
        return nil
      }
    }
    requests.cancel(id: .string("dup"))
    try await Self.eventually { requests.count == 0 }
    #expect(log.all == ["cancelled", "cancelled"])
  }

  /// At shutdown nobody will act on an interactive login: it is cancelled at once, not waited for (were it
  /// waited for, the drain's 10-minute timeout would trip the time limit, a hang guard).
  @Test(.timeLimit(.minutes(1))) func drainCancelsRequestsWaitingForAPersonFirst() async throws {
    let requests = InFlightRequests(limit: 10)
    let log = EventLog()
    _ = requests.start(id: .number("1"), profile: "p", plan: CallPlan(ordering: .independent, waitsForUser: true)) {
      do {
        try await Task.sleep(for: .seconds(600))
      } catch {
        log.append("cancelled")
      }
      return nil
    }
    // `drain` blocks its thread, as it does the transport's: a thread of its own, not the cooperative pool the
    // cancelled task needs to finish on.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        requests.drain(timeoutMilliseconds: 600_000)
        done.resume()
      }
    }
    #expect(log.all == ["cancelled"])
    #expect(requests.count == 0)
  }
}
