import AuthJSON
import AuthProtocol
import Testing

@testable import AuthDispatch

@Suite struct ServerTests {
  // MARK: Concurrency and order

  @Test func concurrentRequestsAreAnsweredOutOfOrder() async throws {
    let harness = ServerHarness()
    harness.request("gate", id: "1", params: #"{"name":"slow"}"#)
    harness.request("sleep", id: "2", params: #"{"ms":0}"#)
    let first = try await harness.sender.wait(for: 1)
    #expect(first.map(\.id) == [2], "the quick request answers while the slow one waits")
    harness.gates.open("slow")
    let both = try await harness.sender.wait(for: 2)
    #expect(both.map(\.id) == [2, 1])
    #expect(answer(1, in: both)?.result == "slow")
    #expect(answer(2, in: both)?.result == json(#"{"slept":0}"#))
  }

  @Test func inlineMethodsAnswerAtOnceWhateverIsInFlight() async throws {
    let harness = ServerHarness()
    harness.request("gate", id: #""login""#, params: #"{"name":"never"}"#)
    harness.request("validate", id: "2", params: #"{"username":"alice"}"#)
    #expect(harness.sender.messages.map(\.id) == [2], "answered synchronously on the reader thread")
    harness.gates.open("never")
    try await harness.sender.wait(for: 2)
  }

  @Test func sessionChangesOfOneProfileApplyInArrivalOrderWhileOtherProfilesRun() async throws {
    let harness = ServerHarness()
    harness.request("record", id: "1", params: #"{"tag":"a1","gate":"a1"}"#)
    harness.request("record", id: "2", params: #"{"tag":"a2"}"#)
    harness.request("record", id: "3", params: #"{"tag":"a3","gate":"a3"}"#)
    harness.request("record", id: "4", params: #"{"tag":"b1","profile":"b"}"#)
    harness.request("record", id: "5", params: #"{"tag":"a4","profile":"default"}"#)
    // Profile b finishes while profile default's first change is still waiting.
    let early = try await harness.sender.wait(for: 1)
    #expect(early.map(\.id) == [4])
    #expect(!harness.log.all.contains("start default a2"), "a2 waits for a1")
    harness.gates.open("a3")  // opened early: a3 must still wait for a1 and a2
    try await harness.barrier()
    #expect(harness.sender.count == 1)
    harness.gates.open("a1")
    let all = try await harness.sender.wait(for: 5)
    #expect(all.map(\.id) == [4, 1, 2, 3, 5])
    let defaultLog = harness.log.all.filter { $0.contains(" default ") }
    #expect(
      defaultLog == [
        "start default a1", "end default a1", "start default a2", "end default a2", "start default a3",
        "end default a3", "start default a4", "end default a4",
      ])
  }

  @Test func readOnlyMethodsOfOneProfileRunConcurrently() async throws {
    let harness = ServerHarness()
    harness.request("gate", id: "1", params: #"{"name":"g"}"#)
    harness.request("gate", id: "2", params: #"{"name":"other"}"#)
    harness.gates.open("other")
    #expect(try await harness.sender.wait(for: 1).map(\.id) == [2])
    harness.gates.open("g")
    try await harness.sender.wait(for: 2)
  }

  // MARK: Cancellation

  @Test func cancelRequestNotificationAnswersCancelled() async throws {
    let harness = ServerHarness()
    harness.request("sleep", id: "7", params: #"{"ms":60000}"#)
    harness.notify("$/cancelRequest", params: #"{"id":7}"#)
    let answers = try await harness.sender.wait(for: 1)
    #expect(answers.count == 1)
    #expect(answers[0].id == 7)
    #expect(answers[0].errorCode == -32800)
    #expect(answers[0].errorKind == "cancelled")
    #expect(answers[0].errorData?["retryable"] == false)
  }

  @Test func cancelMatchesTheIDExactly() async throws {
    let harness = ServerHarness()
    harness.request("gate", id: #""7""#, params: #"{"name":"g"}"#)
    harness.notify("$/cancelRequest", params: #"{"id":7}"#)  // the number 7 is not the string "7"
    harness.notify("$/cancelRequest", params: #"{"id":"nope"}"#)
    harness.notify("$/cancelRequest")
    try await harness.barrier()
    #expect(harness.sender.count == 0)
    harness.notify("$/cancelRequest", params: #"{"id":"7"}"#)
    let answers = try await harness.sender.wait(for: 1)
    #expect(answers[0].id == "7")
    #expect(answers[0].errorKind == "cancelled")
  }

  @Test func cancelRequestSentAsARequestIsAnsweredToo() async throws {
    let harness = ServerHarness()
    harness.request("sleep", id: #""s""#, params: #"{"ms":60000}"#)
    harness.request("$/cancelRequest", id: #""c""#, params: #"{"id":"s"}"#)
    let answers = try await harness.sender.wait(for: 2)
    #expect(answer("c", in: answers)?.result == .null)
    #expect(answer("s", in: answers)?.errorCode == -32800)
  }

  @Test func aQueuedSessionChangeCancelledBeforeItStartsNeverRuns() async throws {
    let harness = ServerHarness()
    harness.request("record", id: "1", params: #"{"tag":"first","gate":"first"}"#)
    harness.request("record", id: "2", params: #"{"tag":"second"}"#)
    harness.notify("$/cancelRequest", params: #"{"id":2}"#)
    harness.gates.open("first")
    let answers = try await harness.sender.wait(for: 2)
    #expect(answer(1, in: answers)?.result == "first")
    #expect(answer(2, in: answers)?.errorKind == "cancelled")
    #expect(!harness.log.all.contains("start default second"))
  }

  @Test func aQueuedRequestAnswersCancelledAtOnceButLaterOnesKeepTheirOrder() async throws {
    let harness = ServerHarness()
    harness.request("record", id: "1", params: #"{"tag":"slow","gate":"slow"}"#)
    harness.request("gate", id: "2", params: #"{"name":"read"}"#)
    harness.request("record", id: "3", params: #"{"tag":"after"}"#)
    harness.notify("$/cancelRequest", params: #"{"id":2}"#)
    // The cancelled read answers while the slow session change is still running…
    let first = try await harness.sender.wait(for: 1)
    #expect(answer(2, in: first)?.errorKind == "cancelled")
    #expect(!harness.log.all.contains("end default slow"))
    // …and the session change queued after it still waits for the slow one.
    try await harness.barrier()
    #expect(!harness.log.all.contains("start default after"))
    harness.gates.open("slow")
    let answers = try await harness.sender.wait(for: 3)
    #expect(answer(1, in: answers)?.result == "slow")
    #expect(answer(3, in: answers)?.result == "after")
    let log = harness.log.all
    #expect(log.firstIndex(of: "end default slow")! < log.firstIndex(of: "start default after")!)
  }

  // MARK: In-flight limit

  @Test func inFlightLimitAnswersRateLimitedThenRecovers() async throws {
    var limits = Server.Limits()
    limits.maxInFlight = 2
    let harness = ServerHarness(limits: limits)
    harness.request("gate", id: "1", params: #"{"name":"g"}"#)
    harness.request("gate", id: "2", params: #"{"name":"g"}"#)
    harness.request("gate", id: "3", params: #"{"name":"g"}"#)
    let refused = harness.sender.messages
    #expect(refused.count == 1, "the third is refused at once")
    #expect(refused.first?.id == 3)
    #expect(refused.first?.errorKind == "rate_limited")
    #expect(refused.first?.errorCode == -32005)
    #expect(refused.first?.errorData?["reason"] == "too_many_in_flight")
    #expect(refused.first?.errorData?["retryable"] == true)
    // Inline methods are not counted: validate still answers.
    harness.request("validate", id: "4", params: #"{"username":"bob"}"#)
    #expect(harness.sender.messages.last?.id == 4)
    #expect(harness.sender.messages.last?.result?["valid"] == true)
    harness.gates.open("g")
    try await harness.sender.wait(for: 4)
    harness.request("sleep", id: "5", params: #"{"ms":0}"#)
    let answers = try await harness.sender.wait(for: 5)
    #expect(answer(5, in: answers)?.result == json(#"{"slept":0}"#))
  }

  @Test func aSlotIsFreeAsSoonAsItsAnswerIsOut() async throws {
    // A host keeping exactly `maxInFlight` requests outstanding sends the next one the moment it
    // reads an answer; that request must not find the answered one still counted.
    var limits = Server.Limits()
    limits.maxInFlight = 1
    let harness = ServerHarness(limits: limits)
    let server = harness.server
    let sent = Counter()
    harness.sender.onSend { _ in
      let answered = sent.increment()
      guard answered <= 3 else { return }
      let next = ServerHarness.request("sleep", id: String(answered + 1), params: #"{"ms":0}"#)
      Array(next.utf8).withUnsafeBufferPointer { server.receive($0) }
    }
    harness.request("sleep", id: "1", params: #"{"ms":0}"#)
    let answers = try await harness.sender.wait(for: 4)
    #expect(answers.map(\.id) == [1, 2, 3, 4])
    #expect(answers.allSatisfy { $0.result == json(#"{"slept":0}"#) }, "\(answers.map { JSONWriter.string($0) })")
  }

  // MARK: Batches

  @Test func batchIsAnsweredAsOneArrayInRequestOrder() async throws {
    let harness = ServerHarness()
    harness.receive(
      "["
        + [
          ServerHarness.request("gate", id: #""slow""#, params: #"{"name":"g"}"#),
          ServerHarness.notification("record", params: #"{"tag":"n"}"#),
          ServerHarness.request("sleep", id: #""quick""#, params: #"{"ms":0}"#),
          #"{"foo":"boo"}"#,
          ServerHarness.request("validate", id: "3", params: #"{"email":"a@b.co"}"#),
          ServerHarness.request("nope", id: "4"),
        ].joined(separator: ",") + "]")
    try await harness.barrier()  // the batch's quick answers are in; "slow" still waits on its gate
    #expect(harness.sender.count == 0, "nothing goes out before the whole batch is answered")
    harness.gates.open("g")
    let sent = try await harness.sender.wait(for: 1)
    #expect(sent.count == 1)
    let batch = try #require(sent.first?.arrayValue)
    #expect(batch.map(\.id) == ["slow", "quick", nil, 3, 4])
    #expect(batch[0].result == "g")
    #expect(batch[1].result == json(#"{"slept":0}"#))
    #expect(batch[2].errorCode == -32600)
    #expect(batch[3].result?["valid"] == true)
    #expect(batch[4].errorCode == -32601)
    // The notification is a session change: it runs after the earlier read ("slow") on its profile.
    try await harness.settle()
    #expect(harness.log.all.contains("end default n"), "the notification in the batch ran")
  }

  @Test func batchOfOnlyNotificationsSendsNothing() async throws {
    let harness = ServerHarness()
    harness.receive(
      "[" + ServerHarness.notification("record", params: #"{"tag":"x"}"#) + ","
        + ServerHarness.notification("validate", params: #"{"username":"a"}"#) + ","
        + ServerHarness.notification("nope") + "]")
    let sent = try await harness.settle()
    #expect(harness.log.all.contains("end default x"))
    #expect(sent.count == 0)
  }

  @Test func invalidBatchesAreSingleErrors() {
    let harness = ServerHarness()
    harness.receive("[]")
    harness.receive(#"[{"jsonrpc":"2.0","method":"a","id":1}, {"jsonrpc"]"#)
    let sent = harness.sender.messages
    #expect(sent.map(\.errorCode) == [-32600, -32700])
    #expect(sent.allSatisfy { $0.id == .null && $0.arrayValue == nil })
  }

  @Test func batchSizeLimit() {
    var limits = Server.Limits()
    limits.maxBatchSize = 2
    let harness = ServerHarness(limits: limits)
    let element = ServerHarness.request("validate", id: "1", params: #"{"username":"abc"}"#)
    harness.receive("[" + [element, element, element].joined(separator: ",") + "]")
    #expect(harness.sender.messages.first?.errorCode == -32600)
    harness.receive("[" + [element, element].joined(separator: ",") + "]")
    #expect(harness.sender.messages.last?.arrayValue?.count == 2)
  }

  // MARK: Notifications and errors

  @Test func notificationsAreNeverAnswered() async throws {
    let harness = ServerHarness()
    harness.notify("validate", params: #"{"username":"a"}"#)
    harness.notify("nope")
    harness.notify("record", params: #"{"tag":"n","unknown":1}"#)  // bad params: dropped silently
    harness.notify("record", params: #"{"tag":"ok"}"#)
    let sent = try await harness.settle()
    #expect(harness.log.all == ["start default ok", "end default ok"])
    #expect(sent.count == 0)
  }

  @Test func protocolErrorsAreAnsweredToNullOrTheRecoveredID() {
    let harness = ServerHarness()
    harness.receive("{")
    harness.receive(#"{"jsonrpc":"2.0","id":9,"method":"validate","method":"x"}"#)
    harness.receive(#"{"jsonrpc":"1.0","id":"v","method":"validate"}"#)
    harness.receive(String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
    harness.receive(String(repeating: "[", count: 100_000))
    harness.server.receiveOversized(limit: 1024)
    harness.server.receiveFramingError("LSP header without a valid Content-Length")
    let sent = harness.sender.messages
    #expect(sent.map(\.id) == [nil, 9, "v", nil, nil, nil, nil])
    #expect(sent.map(\.errorCode) == [-32700, -32600, -32600, -32600, -32700, -32600, -32600])
  }

  @Test func unknownMethodIsMethodNotFound() {
    let harness = ServerHarness()
    harness.request("login2", id: "1")
    let answer = harness.sender.messages.first
    #expect(answer?.errorCode == -32601)
    #expect(answer?.errorKind == "method_not_found")
    #expect(answer?.errorData?["method"] == "login2")
  }

  @Test func idsAreEchoedExactly() {
    let harness = ServerHarness()
    for id in [#""s""#, "1.50", "-0", "123456789012345678901234567890", "1E400", "null"] {
      harness.request("validate", id: id, params: #"{"username":"abc"}"#)
    }
    let text = harness.sender.messages.map { JSONWriter.string($0["id"] ?? "missing") }
    #expect(text == [#""s""#, "1.50", "-0", "123456789012345678901234567890", "1E400", "null"])
  }

  @Test func thrownErrorsAreTranslated() async throws {
    let harness = ServerHarness()
    harness.request("fail", id: "1", params: #"{"kind":"network_unavailable"}"#)
    harness.request("fail", id: "2")
    let answers = try await harness.sender.wait(for: 2)
    #expect(answer(1, in: answers)?.errorKind == "network_unavailable")
    #expect(answer(1, in: answers)?.errorData?["retryable"] == true)
    #expect(answer(2, in: answers)?.errorKind == "internal")
    #expect(answer(2, in: answers)?.errorCode == -32603)
    #expect(answer(2, in: answers)?["error"]?["message"] == "Internal error.")
    #expect(harness.reported.all == ["internal error: Opaque"], "the cause goes to the log, by type only")
  }

  @Test func errorsAreLocalized() async throws {
    let harness = ServerHarness()
    harness.request("sleep", id: "1", params: #"{"ms":60000,"locale":"zh-Hans"}"#)
    harness.notify("$/cancelRequest", params: #"{"id":1}"#)
    let answers = try await harness.sender.wait(for: 1)
    #expect(answers[0]["error"]?["message"] == "请求已取消。")
  }

  // MARK: Drain

  @Test func drainWaitsForInFlightWork() async throws {
    let harness = ServerHarness()
    harness.request("gate", id: "1", params: #"{"name":"g"}"#)
    harness.request("record", id: "2", params: #"{"tag":"r","gate":"g"}"#)
    let gates = harness.gates
    Task {
      try await Task.sleep(for: .milliseconds(30))
      gates.open("g")
    }
    let clock = ContinuousClock()
    let start = clock.now
    await harness.drain(timeoutMilliseconds: 30_000)
    #expect(clock.now - start >= .milliseconds(25), "drain returned before the work was done")
    #expect(harness.sender.count == 2, "both answers were out when drain returned")
    #expect(harness.sender.messages.allSatisfy { $0["error"] == nil })
  }

  @Test func drainWithNothingInFlightReturnsAtOnce() async {
    let harness = ServerHarness()
    let clock = ContinuousClock()
    let start = clock.now
    await harness.drain(timeoutMilliseconds: 30_000)
    // A hang guard, not a timing: on a loaded machine "at once" can take a while.
    #expect(clock.now - start < .seconds(20))
  }

  @Test func drainTimeoutCancelsWhatIsLeft() async throws {
    let harness = ServerHarness()
    harness.request("sleep", id: "1", params: #"{"ms":60000}"#)
    let clock = ContinuousClock()
    let start = clock.now
    await harness.drain(timeoutMilliseconds: 30)
    // A hang guard, not a timing: the point is that drain returns although the work never ends.
    #expect(clock.now - start < .seconds(20))
    let answers = harness.sender.messages
    #expect(answers.count == 1)
    #expect(answers.first?.errorKind == "cancelled")
  }
}
