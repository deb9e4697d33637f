/// The one error type AuthCrypto throws.
///
/// Messages are for developers and logs, never for end users. They name the operation and, when libcrypto
/// reported one, its reason string; they never carry key, plaintext or password bytes.
package struct CryptoError: Error, Sendable, CustomStringConvertible {
  /// Internal so that new cases break no caller; other modules ask through the `is…` predicates.
  enum Code: Sendable {
    case randomUnavailable
    case invalidKey
    case invalidParameters
    case malformedInput
    case authenticationFailed
    case openSSLFailure
    case libraryUnavailable
  }

  let code: Code
  /// What we were doing, in our own words.
  package let message: String
  /// libcrypto's text for the first queued error (`ERR_error_string_n`), if it reported one.
  package let openSSLReason: String?

  init(_ code: Code, _ message: String, openSSLReason: String? = nil) {
    self.code = code
    self.message = message
    self.openSSLReason = openSSLReason
  }

  package var description: String {
    guard let openSSLReason else { return "CryptoError: \(message)" }
    return "CryptoError: \(message) (OpenSSL: \(openSSLReason))"
  }

  /// A sealed box or MAC did not verify: the data was tampered with, or the key is wrong.
  package var isAuthenticationFailure: Bool { code == .authenticationFailed }
  /// Encoded input (a password hash string, a token, a sealed box too short to hold a tag) is not well formed.
  package var isMalformedInput: Bool { code == .malformedInput }
  /// libcrypto could not be loaded (`LibCrypto`): nothing that needs crypto can run until it is installed.
  package var isLibraryUnavailable: Bool { code == .libraryUnavailable }
}

extension CryptoError {
  /// The CSPRNG refused to produce bytes.
  static func randomUnavailable() -> CryptoError {
    CryptoError(.randomUnavailable, "random generator failed", openSSLReason: OpenSSLErrorQueue.takeAll())
  }

  static func invalidKey(_ message: String) -> CryptoError {
    CryptoError(.invalidKey, message, openSSLReason: OpenSSLErrorQueue.takeAll())
  }

  static func invalidParameters(_ message: String) -> CryptoError {
    CryptoError(.invalidParameters, message)
  }

  static func malformedInput(_ message: String) -> CryptoError {
    CryptoError(.malformedInput, message)
  }

  /// Tag or signature mismatch. libcrypto's queue is cleared but not quoted: its reason adds nothing here.
  static func authenticationFailed(_ message: String) -> CryptoError {
    OpenSSLErrorQueue.clear()
    return CryptoError(.authenticationFailed, message)
  }

  /// A libcrypto call failed for a reason other than bad input (allocation, missing provider).
  static func openSSLFailure(_ operation: String) -> CryptoError {
    CryptoError(.openSSLFailure, "\(operation) failed", openSSLReason: OpenSSLErrorQueue.takeAll())
  }
}
