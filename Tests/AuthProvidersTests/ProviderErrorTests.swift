import Testing

@testable import AuthProviders

@Suite struct ProviderErrorTests {
  @Test(arguments: [
    (ProviderError.Code.networkUnavailable, true), (.timeout, true), (.serverError(status: 503), true),
    (.rateLimited(retryAfter: 3), true), (.invalidCredentials, false), (.sessionRejected, false),
    (.alreadyExists(field: "email"), false), (.badResponse, false), (.tlsError, false), (.unsupported, false),
  ])
  func onlyNetworkSideFailuresAreTransient(_ code: ProviderError.Code, transient: Bool) {
    #expect(ProviderError(code, "detail").isTransient == transient)
  }

  @Test func theDescriptionIsTheCodeAndTheDetail() {
    #expect(
      "\(ProviderError(.sessionRejected, "revoked refresh token"))"
        == "ProviderError.sessionRejected: revoked refresh token")
  }
}
