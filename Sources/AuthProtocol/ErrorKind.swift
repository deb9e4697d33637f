/// The stable error kinds hosts switch on (`error.data.kind`), each with its stable code.
///
/// The four protocol kinds carry the JSON-RPC 2.0 codes; the rest use the server range
/// -32000…-32099, except `cancelled`, which uses LSP's RequestCancelled (-32800) so editor
/// plugins recognise it. Changing a code or a name breaks hosts: add, never renumber.
package enum ErrorKind: String, Sendable, CaseIterable {
  case parseError = "parse_error"
  case invalidRequest = "invalid_request"
  case methodNotFound = "method_not_found"
  case invalidParams = "invalid_params"
  case validationFailed = "validation_failed"
  case invalidCredentials = "invalid_credentials"
  case notLoggedIn = "not_logged_in"
  case sessionExpired = "session_expired"
  case rateLimited = "rate_limited"
  case networkUnavailable = "network_unavailable"
  case timeout
  case serverError = "server_error"
  case badResponse = "bad_response"
  case tlsError = "tls_error"
  case storageUnavailable = "storage_unavailable"
  case storageCorrupt = "storage_corrupt"
  case alreadyExists = "already_exists"
  case unsupported
  case configError = "config_error"
  case verificationRequired = "verification_required"
  case cancelled
  case `internal`

  package var code: Int {
    switch self {
    case .parseError: return -32700
    case .invalidRequest: return -32600
    case .methodNotFound: return -32601
    case .invalidParams: return -32602
    case .internal: return -32603
    case .validationFailed: return -32001
    case .invalidCredentials: return -32002
    case .notLoggedIn: return -32003
    case .sessionExpired: return -32004
    case .rateLimited: return -32005
    case .networkUnavailable: return -32006
    case .timeout: return -32007
    case .serverError: return -32008
    case .badResponse: return -32009
    case .tlsError: return -32010
    case .storageUnavailable: return -32011
    case .storageCorrupt: return -32012
    case .alreadyExists: return -32013
    case .unsupported: return -32014
    case .configError: return -32015
    case .verificationRequired: return -32016
    case .cancelled: return -32800
    }
  }

  /// Whether the same request may succeed if simply sent again later.
  package var isRetryable: Bool {
    switch self {
    case .rateLimited, .networkUnavailable, .timeout, .serverError, .storageUnavailable: return true
    default: return false
    }
  }
}
