import AuthHTTP
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one attempt produced.
enum AttemptOutcome: Sendable {
  case response(status: Int, headers: [HTTPHeader], body: [UInt8])
  case failure(TransportFailure)
}

/// One URLSession data task as `send` sees it: fed by `SessionDelegate`, awaited by the attempt.
/// The first outcome wins, whoever reports it: the delegate's completion, the size cap, the total
/// deadline or the caller's cancellation. Later reports are dropped.
final class Transfer: Sendable {
  private struct State {
    var head: (status: Int, headers: [HTTPHeader])?
    var body: [UInt8] = []
    var outcome: AttemptOutcome?
    var waiter: CheckedContinuation<AttemptOutcome, Never>?
  }

  private let state = Mutex(State())
  private let maxBytes: Int

  init(maxBytes: Int) { self.maxBytes = maxBytes }

  /// Takes the response head. Returns false when the transfer must stop: the declared length is
  /// already over the cap, so there is no point reading any of it.
  func receive(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else {
      return !finish(.failure(TransportFailure(HTTPError(.networkUnavailable, "not an HTTP response"))))
    }
    guard http.expectedContentLength <= Int64(maxBytes) else {
      return !finish(.failure(Self.tooLarge(maxBytes)))
    }
    let head = (status: http.statusCode, headers: ResponseHeaders.from(http))
    state.withLock { $0.head = head }
    return true
  }

  /// Appends body bytes. Returns false when these bytes passed the cap: the caller stops the task.
  /// Once an outcome is decided the bytes are dropped and true is returned, since whoever decided
  /// has stopped the task already; cancelling again per chunk would make every late chunk wait
  /// for the session's busy work queue (`cancel()` starts with `workQueue.sync`).
  func receive(_ data: Data) -> Bool {
    let overCap = state.withLock { state in
      guard state.outcome == nil else { return false }
      guard state.body.count + data.count <= maxBytes else { return true }
      state.body.append(contentsOf: data)
      return false
    }
    return !(overCap && finish(.failure(Self.tooLarge(maxBytes))))
  }

  /// The delegate's completion. `response` is the task's: FoundationNetworking may complete a task
  /// without announcing its response first (a 3xx whose redirect it did not perform).
  func complete(error: (any Error)?, response: URLResponse?) {
    if let error {
      finish(.failure(TransportFailure(foundation: error)))
      return
    }
    let announced = state.withLock { $0.head }
    if let head = announced ?? (response as? HTTPURLResponse).map({ ($0.statusCode, ResponseHeaders.from($0)) }) {
      let body = state.withLock { state in
        defer { state.body = [] }
        return state.body
      }
      finish(.response(status: head.status, headers: head.headers, body: body))
    } else {
      finish(.failure(TransportFailure(HTTPError(.networkUnavailable, "completed without a response"))))
    }
  }

  /// Records `outcome` unless one is already recorded.
  /// - Returns: true when this call decided the outcome (the caller then stops the task).
  @discardableResult
  func finish(_ outcome: AttemptOutcome) -> Bool {
    let (decided, waiter) = state.withLock { state -> (Bool, CheckedContinuation<AttemptOutcome, Never>?) in
      guard state.outcome == nil else { return (false, nil) }
      state.outcome = outcome
      state.body = []
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume(returning: outcome)
    return decided
  }

  /// Waits for the outcome; returns at once if it is already known.
  func outcome() async -> AttemptOutcome {
    await withCheckedContinuation { continuation in
      let known = state.withLock { state -> AttemptOutcome? in
        if let outcome = state.outcome { return outcome }
        state.waiter = continuation
        return nil
      }
      if let known { continuation.resume(returning: known) }
    }
  }

  private static func tooLarge(_ maxBytes: Int) -> TransportFailure {
    TransportFailure(HTTPError(.responseTooLarge, "body over \(maxBytes) bytes"))
  }
}
