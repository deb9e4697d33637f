/// The one seam between providers and the network. `CurlHTTPClient` is the one the sidecar uses: libcurl in
/// process, loaded on the first request. Tests of providers substitute a stub that returns canned responses.
package protocol HTTPClient: Sendable {
  /// Sends `request`, retrying transient failures and following redirects as the request allows.
  /// - Returns: the final response, whatever its status.
  /// - Throws: `HTTPError` when there is no response to return.
  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
