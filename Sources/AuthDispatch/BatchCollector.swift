import AuthJSON
import AuthProtocol
import Synchronization

/// Gathers the answers of one batch and sends them as one array, in request order, once
/// the last one is in. A batch with nothing to answer (only notifications) sends nothing.
final class BatchCollector: Sendable {
  private struct State {
    var answers: [OutgoingMessage?]
    var missing: Int
  }

  private let state: Mutex<State>
  private let sender: any MessageSender

  init(expected: Int, sender: any MessageSender) {
    state = Mutex(State(answers: Array(repeating: nil, count: expected), missing: expected))
    self.sender = sender
  }

  /// The reply function for the answer in position `slot`.
  func reply(slot: Int) -> Reply {
    { [self] answer in
      let complete: [OutgoingMessage]? = state.withLock { state in
        guard state.answers[slot] == nil else { return nil }
        state.answers[slot] = answer
        state.missing -= 1
        return state.missing == 0 ? state.answers.map { $0! } : nil
      }
      if let complete { sender.send(.batch(complete)) }
    }
  }
}

/// Delivers the one answer of a request.
typealias Reply = @Sendable (OutgoingMessage) -> Void
