import AuthHTTP
import AuthSupport
import Synchronization

/// Runs each `send` as a task of its own, so requests proceed concurrently, and keeps the tasks by id so a
/// `cancel` can reach them. Every `send` gets exactly one answer, a cancelled one included.
final class WorkerServer: Sendable {
  private struct Running {
    var tasks: [Int64: Task<Void, Never>] = [:]
    /// Requests whose task finished before it could be registered.
    var finishedEarly: Set<Int64> = []
  }

  private let client: any HTTPClient
  private let output: WorkerOutput
  private let log: Logger
  private let running = Mutex(Running())

  init(client: any HTTPClient, output: WorkerOutput, log: Logger) {
    self.client = client
    self.output = output
    self.log = log
  }

  /// Called by the reading thread, one line at a time: a `cancel` is handled only after the `send` it
  /// names was registered.
  func handle(_ line: [UInt8]) {
    let message: WorkerMessage
    do {
      message = try WorkerMessage(line: line)
    } catch {
      // A sidecar of another build, or a bug: answer what can be answered, so no request waits forever.
      log.error("http worker: \(error)")
      if let id = error.id { output.send(.failure(id: id, error: HTTPError(.invalidRequest, error.description))) }
      return
    }
    switch message {
    case .send(let id, let request):
      start(id, request)
    case .cancel(let id):
      // Nil when the answer already went: the sidecar's cancel crossed it.
      running.withLock { $0.tasks[id] }?.cancel()
    case .hello, .response, .failure, .log:
      log.error("http worker: unexpected message from the sidecar")
    }
  }

  private func start(_ id: Int64, _ request: HTTPRequest) {
    // `immediate`: the request is checked and handed to URLSession on this, the reading, thread, up to its
    // first suspension, rather than after a pool thread wakes up; that hop was a tenth of the latency the
    // worker adds. So the task may also finish before it is registered, which `finished` notes.
    let task = Task.immediate { [client, output] in
      let answer: WorkerMessage
      do throws(HTTPError) {
        answer = .response(id: id, response: try await client.send(request))
      } catch {
        answer = .failure(id: id, error: error)
      }
      output.send(answer)
      self.finished(id)
    }
    running.withLock { running in
      if running.finishedEarly.remove(id) == nil { running.tasks[id] = task }
    }
  }

  private func finished(_ id: Int64) {
    running.withLock { running in
      if running.tasks.removeValue(forKey: id) == nil { running.finishedEarly.insert(id) }
    }
  }
}
