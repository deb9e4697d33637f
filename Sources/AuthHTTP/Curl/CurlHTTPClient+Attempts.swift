extension CurlHTTPClient {
  /// Sends `exchange` until it gets an answer worth returning, a failure worth throwing, or no time.
  func sendWithRetries(
    _ exchange: Exchange, on engine: CurlEngine, idempotent: Bool, deadline: ContinuousClock.Instant
  ) async throws(HTTPError) -> HTTPResponse {
    var attempt = 1
    while true {
      let started = ContinuousClock.now
      let outcome = try await perform(exchange, on: engine, deadline: deadline)
      // Only for a debug line: not worked out (nor its code run) for an answer nobody logs.
      let elapsed = { (ContinuousClock.now - started).wholeMilliseconds }
      let wait: Duration
      switch outcome {
      case .response(let status, let head, let body):
        let response = HTTPResponse(status: status, head: head, body: body, finalURL: exchange.target.url)
        log.debug("http \(exchange.logName) → \(status) in \(elapsed()) ms (attempt \(attempt))")
        guard attempt < policy.maxAttempts,
          let delay = rules.delay(
            after: response, idempotent: idempotent, failures: attempt, now: clock.now(), unit: .random(in: 0...1)),
          ContinuousClock.now + delay < deadline
        else { return response }
        wait = delay
      case .failure(let failure):
        log.debug("http \(exchange.logName) failed in \(elapsed()) ms (attempt \(attempt)): \(failure.error)")
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

  /// One transfer, bounded by `deadline` (libcurl's total timeout) and by the calling task's cancellation.
  func perform(
    _ exchange: Exchange, on engine: CurlEngine, deadline: ContinuousClock.Instant
  ) async throws(HTTPError) -> AttemptOutcome {
    let remaining = deadline - ContinuousClock.now
    guard remaining > .zero else { return .failure(TransportFailure(HTTPError(.timeout, "total timeout passed"))) }
    let transfer = try CurlRequest(exchange: exchange, policy: policy, tls: tls, proxy: proxy)
      .transfer(curl: engine.curl, handles: engine.handles, timeout: remaining)
    return await withTaskCancellationHandler {
      engine.submit(transfer)
      return await transfer.outcome()
    } onCancel: {
      if transfer.finish(.failure(TransportFailure(HTTPError(.cancelled, "calling task cancelled")))) {
        engine.cancel(transfer)
      }
    }
  }
}
