/// The one seam between providers and the network. `WorkerHTTPClient` is the one the sidecar uses: it sends
/// through `URLSessionHTTPClient` (module AuthHTTPURLSession) in the `auth-sidecar-http` worker process, so
/// the sidecar itself never links Foundation. Tests of providers substitute a stub that returns canned
/// responses.
package protocol HTTPClient: Sendable {
  /// Sends `request`, retrying transient failures and following redirects as the request allows.
  /// - Returns: the final response, whatever its status.
  /// - Throws: `HTTPError` when there is no response to return.
  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
