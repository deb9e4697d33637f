import AuthHTTP
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one delegate of the client's URLSession: routes each task's callbacks to its `Transfer`,
/// enforces the body cap as bytes arrive, and refuses every redirect so that `send` decides.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let transfers = Mutex<[Int: Transfer]>([:])

  func register(_ transfer: Transfer, for task: URLSessionTask) {
    transfers.withLock { $0[task.taskIdentifier] = transfer }
  }

  func unregister(_ task: URLSessionTask) {
    _ = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
  }

  private func transfer(for task: URLSessionTask) -> Transfer? {
    transfers.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    // FoundationNetworking ignores the disposition ("Ignoring disposition from completion
    // handler"), so stopping a transfer means cancelling its task.
    if let transfer = transfer(for: dataTask), !transfer.receive(response) { Self.cancel(dataTask) }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    if let transfer = transfer(for: dataTask), !transfer.receive(data) { Self.cancel(dataTask) }
  }

  /// Callbacks run inline on the session's work queue (`InlineOperationQueue`), where `cancel()`
  /// would wait on itself; it is sent from another queue instead.
  private static func cancel(_ task: URLSessionTask) {
    DispatchQueue.global().async { task.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // nil hands the 3xx itself over as the response; `send` follows it only when the request
    // allows it and the origin stays the same.
    completionHandler(nil)
  }

  /// Reached for a 401 that carries `WWW-Authenticate: Basic realm=…` (an OAuth token endpoint
  /// refusing client_secret_basic), after the whole response arrived. FoundationNetworking's default
  /// handling, with no credential to offer, never completes the task: it would hang to the total
  /// timeout. The 401 is the answer, so it is handed over as the response and the task cancelled.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    transfer(for: task)?.complete(error: nil, response: task.response)
    // Cancelling goes through `task.cancel()`, so not from this queue (see `cancel(_:)`).
    DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    transfer(for: task)?.complete(error: error, response: task.response)
  }
}
