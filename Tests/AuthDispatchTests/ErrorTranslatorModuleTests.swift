import AuthHTTP
import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthStorage
import Testing

@testable import AuthCrypto
@testable import AuthDispatch

/// The module errors `ErrorTranslator` maps code by code, and what happens to one it does not know.
@Suite struct ErrorTranslatorModuleTests {
  static func translate(_ error: any Error) -> (error: RPCError, reports: [String]) {
    let reports = EventLog()
    let translated = ErrorTranslator(report: { reports.append($0) }).translate(error, locale: .en)
    return (translated, reports.all)
  }

  @Test(arguments: [
    (SessionError(.sessionExpired), ErrorKind.sessionExpired),
    (SessionError(.notLoggedIn(lastAccount: nil)), .notLoggedIn), (SessionError(.unknownProfile("x")), .configError),
  ])
  func sessionErrorsMapByCodeAndAreNotReported(error: SessionError, kind: ErrorKind) {
    let (translated, reports) = Self.translate(error)
    #expect(translated.kind == kind)
    #expect(reports.isEmpty)
  }

  @Test(arguments: [
    (ProviderError(.invalidCredentials, "x"), ErrorKind.invalidCredentials), (ProviderError(.timeout, "x"), .timeout),
    (ProviderError(.sessionRejected, "x"), .sessionExpired), (ProviderError(.tlsError, "x"), .tlsError),
    (ProviderError(.declined, "x"), .invalidCredentials), (ProviderError(.notCompleted, "x"), .timeout),
  ])
  func providerErrorsMapByCodeAndAreReported(error: ProviderError, kind: ErrorKind) {
    let (translated, reports) = Self.translate(error)
    #expect(translated.kind == kind)
    #expect(reports == ["provider: \(error.description)"])
  }

  /// Hosts that only switch on the kind still see a refused login; `data.reason` says more to those that look.
  @Test func anUnknownAccountIsARefusedLoginWithItsReason() {
    let (translated, _) = Self.translate(ProviderError(.unknownAccount, "x"))
    #expect(translated.kind == .invalidCredentials)
    #expect(translated.details["reason"] == .string("unknown_account"))
    #expect(Self.translate(ProviderError(.invalidCredentials, "x")).error.details["reason"] == nil)
  }

  /// The login lock is `rate_limited` that no wait ends: no `retryAfter`, not retryable, and a reason to show.
  @Test func aLockedAccountIsRateLimitedWithReasonLockedAndNotRetryable() {
    let (translated, _) = Self.translate(ProviderError(.locked, "x"))
    #expect(translated.kind == .rateLimited)
    #expect(translated.details["reason"] == "locked")
    #expect(translated.details["retryAfter"] == nil)
    #expect(translated.retryable == false)
    #expect(translated.message.contains("locked"))
  }

  @Test(arguments: [
    (StorageError(.unavailable, "x"), ErrorKind.storageUnavailable), (StorageError(.corrupt, "x"), .storageCorrupt),
    (StorageError(.invalidConfiguration, "x"), .configError), (StorageError(.internalError, "x"), .internal),
  ])
  func storageErrorsMapByCodeAndAreReported(error: StorageError, kind: ErrorKind) {
    let (translated, reports) = Self.translate(error)
    #expect(translated.kind == kind)
    #expect(reports == ["storage: \(error.description)"])
  }

  /// A module error no case names — here an `HTTPError` a provider failed to translate — is not guessed at: it
  /// is `internal`, and only its type name is logged (its detail could name a host or a path).
  @Test func aModuleErrorWithoutACaseIsInternalAndLoggedByTypeName() {
    let (translated, reports) = Self.translate(HTTPError(.timeout, "https://secret.example/x?code=c"))
    #expect(translated.kind == .internal)
    #expect(translated.message == "Internal error.")
    #expect(reports == ["internal error: HTTPError"])
    #expect(!JSONWriter.string(translated.json).contains("secret"))
  }

  /// A libcrypto that cannot be loaded is answered like a missing libcurl: `unsupported`, with the reason for hosts
  /// and what to install in the log. Any other `CryptoError` stays `internal`.
  @Test func anUnloadableLibcryptoIsUnsupportedAndLogged() {
    let missing = CryptoError(.libraryUnavailable, "libcrypto could not be loaded (libcrypto.so.3)")
    let (translated, reports) = Self.translate(missing)
    #expect(translated.kind == .unsupported)
    #expect(JSONWriter.string(translated.json).contains(#""reason":"libcrypto_unavailable""#))
    #expect(reports == ["crypto: libcrypto could not be loaded (libcrypto.so.3)"])
    #expect(Self.translate(CryptoError.malformedInput("x")).error.kind == .internal)
  }
}
