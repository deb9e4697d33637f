/// A failed attempt, with what decides whether it may be retried. The mapping from libcurl's result codes
/// lives with the client (`CurlFailure`).
package struct TransportFailure: Error, Sendable {
  package let error: HTTPError
  /// True when the request cannot have reached the server (connection refused, DNS), so sending it
  /// again is safe whatever the method.
  package let neverSent: Bool

  package init(_ error: HTTPError, neverSent: Bool = false) {
    self.error = error
    self.neverSent = neverSent
  }
}
