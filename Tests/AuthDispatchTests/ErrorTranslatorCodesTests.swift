import AuthJSON
import AuthProtocol
import AuthProviders
import Testing

@testable import AuthDispatch

/// How the code flows' provider errors reach the host: what each carries, and that the challenge — the one secret
/// an error answer holds — goes to the host only, never to the diagnostics log.
@Suite struct ErrorTranslatorCodesTests {
  @Test func verificationRequiredCarriesWhatTheHostNeedsAndTheLogDoesNotSeeTheChallenge() {
    let required = VerificationRequired(
      methods: [.sms], challenge: "challenge-abc", expiresAt: 1_798_761_900, sentTo: "+86 138****5678",
      resendAt: 1_798_761_660)
    let (translated, reports) = ErrorTranslatorModuleTests.translate(
      ProviderError(.verificationRequired(required), "step-up"))
    #expect(translated.kind == .verificationRequired)
    #expect(translated.code == -32016)
    #expect(
      JSONWriter.string(translated.json)
        == #"{"code":-32016,"message":"Enter the verification code to finish signing in.","data":{"kind":"#
        + #""verification_required","retryable":false,"methods":["sms"],"challenge":"challenge-abc","#
        + #""expiresAt":"2027-01-01T00:05:00Z","sentTo":"+86 138****5678","resendAt":"2027-01-01T00:01:00Z"}}"#)
    #expect(reports.count == 1)
    #expect(!reports.joined().contains("challenge-abc"))
  }

  @Test(arguments: [(CodeRefusal.invalidCode, "invalid_code"), (.codeExpired, "code_expired")])
  func refusedCodesAreInvalidCredentialsWithAReason(refusal: CodeRefusal, reason: String) {
    let (translated, _) = ErrorTranslatorModuleTests.translate(ProviderError(.codeRefused(refusal), "x"))
    #expect(translated.kind == .invalidCredentials)
    #expect(translated.details["reason"] == .string(reason))
  }

  @Test func aCooldownIsRateLimitedWithRetryAfterAndResendAt() {
    let (translated, _) = ErrorTranslatorModuleTests.translate(
      ProviderError(.codeRateLimited(retryAfter: 42, resendAt: 1_798_761_660), "cooldown"))
    #expect(translated.kind == .rateLimited)
    #expect(translated.details["retryAfter"] == .number(JSONNumber(42)))
    #expect(translated.details["resendAt"] == "2027-01-01T00:01:00Z")
    #expect(translated.retryable)
  }

  @Test func aFailedDeliveryIsARetryableServerError() {
    let (translated, _) = ErrorTranslatorModuleTests.translate(ProviderError(.deliveryFailed, "exit 3"))
    #expect(translated.kind == .serverError)
    #expect(translated.details["reason"] == "delivery_failed")
    #expect(translated.retryable)
  }
}
