import Testing

@testable import AuthCrypto

@Suite struct CryptoErrorTests {
  @Test func descriptionNamesTheOperationAndOpenSSLReason() {
    let error = CryptoError(.openSSLFailure, "EVP_DigestSign failed", openSSLReason: "error:1C800066:Provider routines")
    #expect(error.description == "CryptoError: EVP_DigestSign failed (OpenSSL: error:1C800066:Provider routines)")
    #expect(CryptoError.malformedInput("bad").description == "CryptoError: bad")
  }

  /// A real libcrypto failure carries libcrypto's reason and leaves the thread's error queue empty.
  @Test func capturesAndDrainsOpenSSLErrors() throws {
    let error = #expect(throws: CryptoError.self) {
      try JWSVerificationKey.ecP256(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)).validate()
    }
    #expect(error?.code == .invalidKey)
    #expect(error?.openSSLReason != nil)
    #expect(OpenSSLErrorQueue.takeAll() == nil)
  }

  @Test func predicates() {
    #expect(CryptoError.authenticationFailed("x").isAuthenticationFailure)
    #expect(!CryptoError.authenticationFailed("x").isMalformedInput)
    #expect(CryptoError.malformedInput("x").isMalformedInput)
  }

  /// A rejected signature pushes libcrypto errors; left behind, they would pile up over a million requests.
  @Test func failedVerificationsLeaveNoQueuedErrors() throws {
    for token in [RFC7515.rs256Token, RFC7515.es256Token] {
      let parts = try JWSCompact.split(token)
      var signature = parts.signature
      signature[0] ^= 0xff
      for key in [RFC7515.rsaKey, RFC7515.ecKey] {
        for algorithm in [JWSAlgorithm.rs256, .es256] {
          #expect(!key.verify(signature: signature, signingInput: parts.signingInput, algorithm: algorithm))
          #expect(OpenSSLErrorQueue.takeAll() == nil)
        }
      }
    }
  }
}
