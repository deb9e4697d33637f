import Testing

@testable import AuthProtocol

@Suite struct ErrorKindTests {
  @Test func everyKindHasAUniqueCode() {
    let codes = ErrorKind.allCases.map(\.code)
    #expect(Set(codes).count == codes.count, "codes: \(codes)")
  }

  @Test func everyKindHasAUniqueName() {
    let names = ErrorKind.allCases.map(\.rawValue)
    #expect(Set(names).count == names.count)
    #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" } }, "snake_case names")
  }

  @Test func jsonRPCCodesAreTheSpecificationsOwn() {
    #expect(ErrorKind.parseError.code == -32700)
    #expect(ErrorKind.invalidRequest.code == -32600)
    #expect(ErrorKind.methodNotFound.code == -32601)
    #expect(ErrorKind.invalidParams.code == -32602)
    #expect(ErrorKind.internal.code == -32603)
    #expect(ErrorKind.cancelled.code == -32800, "LSP RequestCancelled")
  }

  @Test(arguments: ErrorKind.allCases)
  func domainKindsUseTheServerRange(kind: ErrorKind) {
    let reserved: Set<ErrorKind> = [
      .parseError, .invalidRequest, .methodNotFound, .invalidParams, .internal, .cancelled,
    ]
    if !reserved.contains(kind) {
      #expect((-32099 ... -32000).contains(kind.code), "\(kind.rawValue) → \(kind.code)")
    }
  }

  @Test func everyProductKindExists() {
    // The kinds the product promises hosts, plus the four protocol kinds.
    let product = [
      "validation_failed", "invalid_credentials", "not_logged_in", "session_expired", "rate_limited",
      "network_unavailable", "timeout", "server_error", "bad_response", "tls_error", "storage_unavailable",
      "storage_corrupt", "already_exists", "unsupported", "config_error", "cancelled", "internal",
      "parse_error", "invalid_request", "method_not_found", "invalid_params", "verification_required",
    ]
    #expect(Set(ErrorKind.allCases.map(\.rawValue)) == Set(product))
  }

  @Test func stableCodesDoNotMove() {
    let expected: [ErrorKind: Int] = [
      .validationFailed: -32001, .invalidCredentials: -32002, .notLoggedIn: -32003, .sessionExpired: -32004,
      .rateLimited: -32005, .networkUnavailable: -32006, .timeout: -32007, .serverError: -32008,
      .badResponse: -32009, .tlsError: -32010, .storageUnavailable: -32011, .storageCorrupt: -32012,
      .alreadyExists: -32013, .unsupported: -32014, .configError: -32015, .verificationRequired: -32016,
    ]
    for (kind, code) in expected { #expect(kind.code == code, "\(kind.rawValue)") }
  }

  @Test func onlyTransientKindsAreRetryable() {
    let retryable = Set(ErrorKind.allCases.filter(\.isRetryable))
    #expect(retryable == [.rateLimited, .networkUnavailable, .timeout, .serverError, .storageUnavailable])
  }
}
