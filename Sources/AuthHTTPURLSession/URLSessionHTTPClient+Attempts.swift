import AuthHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionHTTPClient {
  /// Sends `exchange` until it gets an answer worth returning, a failure worth throwing, or no time.
  func sendWithRetries(
    _ exchange: Exchange, idempotent: Bool, deadline: ContinuousClock.Instant
  ) async throws(HTTPError) -> HTTPResponse {
    let request = try exchange.urlRequest(connectTimeout: Self.connectTimeoutSeconds(policy))
    var attempt = 1
    while true {
      let started = ContinuousClock.now
      let outcome = await perform(request, deadline: deadline)
      let elapsed = (ContinuousClock.now - started).wholeMilliseconds
      let wait: Duration
      switch outcome {
      case .response(let status, let headers, let body):
        let response = HTTPResponse(
          status: status, headers: headers, body: body, finalURL: exchange.target.url)
        log.debug("http \(exchange.logName) → \(status) in \(elapsed) ms (attempt \(attempt))")
        guard attempt < policy.maxAttempts,
          let delay = rules.delay(
            after: response, idempotent: idempotent, failures: attempt, now: clock.now(), unit: .random(in: 0...1)),
          ContinuousClock.now + delay < deadline
        else { return response }
        wait = delay
      case .failure(let failure):
        log.debug("http \(exchange.logName) failed in \(elapsed) ms (attempt \(attempt)): \(failure.error)")
        guard attempt < policy.maxAttempts,
          let delay = rules.delay(after: failure, idempotent: idempotent, failures: attempt, unit: .random(in: 0...1)),
          ContinuousClock.now + delay < deadline
        else { throw failure.error }
        wait = delay
      }
      log.debug("http \(exchange.logName): retrying in \(wait.wholeMilliseconds) ms")
      do {
        try await Task.sleep(for: wait)
      } catch {
        throw HTTPError(.cancelled, "cancelled while waiting to retry \(exchange.logName)")
      }
      attempt += 1
    }
  }

  /// One data task, bounded by `deadline` and by the calling task's cancellation.
  func perform(_ request: URLRequest, deadline: ContinuousClock.Instant) async -> AttemptOutcome {
    let transfer = Transfer(maxBytes: policy.maxResponseBytes)
    let task = session().dataTask(with: request)
    delegate.register(transfer, for: task)
    defer { delegate.unregister(task) }
    // FoundationNetworking ignores timeoutIntervalForResource, so the total bound is ours.
    let watchdog = Task {
      try? await Task.sleep(until: deadline, clock: .continuous)
      guard !Task.isCancelled else { return }
      let failure = TransportFailure(HTTPError(.timeout, "total timeout passed"))
      if transfer.finish(.failure(failure)) { task.cancel() }
    }
    defer { watchdog.cancel() }
    return await withTaskCancellationHandler {
      task.resume()
      return await transfer.outcome()
    } onCancel: {
      if transfer.finish(.failure(TransportFailure(HTTPError(.cancelled, "calling task cancelled")))) { task.cancel() }
    }
  }
}
