import AuthHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension TransportFailure {
  /// Maps a FoundationNetworking error. On Linux most libcurl failures, TLS ones included, arrive as
  /// `NSURLErrorUnknown` (-1) with libcurl's message as the description (MultiHandle.swift
  /// `urlErrorCode(for:)`), so the message is the only way to tell a certificate failure apart.
  init(foundation error: any Error) {
    let nsError = error as NSError
    // libcurl's own text: no URL in it, at most a host and port. Bounded, for the log.
    let message = String(nsError.localizedDescription.prefix(160))
    let lowered = message.lowercased()
    switch nsError.code {
    case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed,
      NSURLErrorNotConnectedToInternet:
      self.init(HTTPError(.networkUnavailable, message), neverSent: true)
    case NSURLErrorTimedOut:
      self.init(HTTPError(.timeout, "no data within the connect/idle timeout"))
    case NSURLErrorCancelled:
      self.init(HTTPError(.cancelled, "transfer cancelled"))
    case NSURLErrorBadURL, NSURLErrorUnsupportedURL:
      self.init(HTTPError(.invalidURL, message))
    case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate,
      NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
      NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
      NSURLErrorClientCertificateRequired:
      self.init(HTTPError(.tls, message))
    default:
      // Connect failures first: their text names the host, which may itself contain "ssl".
      if ["failed to connect", "couldn't connect", "could not resolve"].contains(where: lowered.contains) {
        // Unreachable network or host: no byte of the request left.
        self.init(HTTPError(.networkUnavailable, message), neverSent: true)
      } else if ["ssl", "tls", "certificate"].contains(where: lowered.contains) {
        self.init(HTTPError(.tls, message))
      } else {
        self.init(HTTPError(.networkUnavailable, message))
      }
    }
  }
}
