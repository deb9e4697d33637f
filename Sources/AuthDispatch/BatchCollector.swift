import AuthJSON
import AuthProtocol
import Synchronization

/// Gathers the answers of one batch and sends them as one array, in request order, once
/// the last one is in. A batch with nothing to answer (only notifications) sends nothing.
///
/// The answers' bytes are counted against `maxAnswerBytes`: the whole array is held and then
/// encoded as one message, so without a bound one small batch of `rpc.discover` calls could take
/// hundreds of megabytes. Once past it, `Server` runs no more of the batch (`isOverBudget`).
final class BatchCollector: Sendable {
  private struct State {
    var answers: [OutgoingMessage?]
    var missing: Int
    var answerBytes = 0
  }

  private let state: Mutex<State>
  private let sender: any MessageSender
  private let maxAnswerBytes: Int

  init(expected: Int, sender: any MessageSender, maxAnswerBytes: Int) {
    state = Mutex(State(answers: Array(repeating: nil, count: expected), missing: expected))
    self.sender = sender
    self.maxAnswerBytes = maxAnswerBytes
  }

  /// Whether the answers so far have reached the bound: the rest of the batch is not run.
  var isOverBudget: Bool { state.withLock { $0.answerBytes >= maxAnswerBytes } }

  /// The answer for a message of the batch that was not run because the answers are over the bound.
  func overBudgetError() -> RPCError {
    RPCError(
      .invalidRequest,
      "Invalid request: the batch's answers reached the limit of \(maxAnswerBytes) bytes; this message was not "
        + "run. Send it again, in a smaller batch.",
      details: ["reason": "batch_answers_too_large"])
  }

  /// The reply function for the answer in position `slot`.
  func reply(slot: Int) -> Reply {
    { [self] answer in
      let complete: [OutgoingMessage]? = state.withLock { state in
        guard state.answers[slot] == nil else { return nil }
        state.answers[slot] = answer
        state.answerBytes += Self.size(of: answer)
        state.missing -= 1
        return state.missing == 0 ? state.answers.map { $0! } : nil
      }
      if let complete { sender.send(.batch(complete)) }
    }
  }

  /// A result's payload is counted as it is (already encoded); anything else is small and is encoded.
  private static func size(of answer: OutgoingMessage) -> Int {
    if case .result(_, let result) = answer { return result.bytes.count + 40 }
    return answer.encoded.count
  }
}

/// Delivers the one answer of a request.
typealias Reply = @Sendable (OutgoingMessage) -> Void
