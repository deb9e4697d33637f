import AuthHTTP
import Foundation
import Testing

@testable import AuthHTTPURLSession

@Suite struct TransportFailureTests {
  func failure(_ code: Int, _ message: String) -> TransportFailure {
    TransportFailure(
      foundation: NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message]))
  }

  @Test func libcurlTLSFailuresArriveAsUnknownAndAreRecognisedByTheirText() {
    #expect(failure(NSURLErrorUnknown, "SSL certificate problem: self-signed certificate").error.code == .tls)
    #expect(failure(NSURLErrorUnknown, "SSL: no alternative certificate subject name matches").error.code == .tls)
    #expect(failure(NSURLErrorServerCertificateUntrusted, "untrusted").error.code == .tls)
  }

  @Test func connectFailuresNeverLeftEvenWhenTheHostNameSaysSSL() {
    let unreachable = failure(NSURLErrorUnknown, "Failed to connect to ssl.example.com port 443: No route to host")
    #expect(unreachable.error.code == .networkUnavailable)
    #expect(unreachable.neverSent)
    #expect(failure(NSURLErrorCannotConnectToHost, "refused").neverSent)
    #expect(failure(NSURLErrorCannotFindHost, "Could not resolve host: x").neverSent)
  }

  @Test func failuresAfterSendingMayHaveBeenProcessed() {
    let lost = failure(NSURLErrorNetworkConnectionLost, "Connection reset by peer")
    #expect(lost.error.code == .networkUnavailable)
    #expect(!lost.neverSent)
    #expect(failure(NSURLErrorBadServerResponse, "Empty reply from server").neverSent == false)
    #expect(failure(NSURLErrorTimedOut, "").error.code == .timeout)
    #expect(failure(NSURLErrorCancelled, "").error.code == .cancelled)
  }
}
