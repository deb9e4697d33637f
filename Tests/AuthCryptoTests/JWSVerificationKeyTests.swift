import AuthCrypto
import Testing

@Suite struct JWSVerificationKeyTests {
  @Test func rfcKeysValidate() throws {
    try RFC7515.hmacKey.validate()
    try RFC7515.rsaKey.validate()
    try RFC7515.ecKey.validate()
  }

  @Test func shortHMACKeyVerifiesNothing() throws {
    let key = SecretBytes([UInt8](repeating: 7, count: 31))
    let input = bytes("a.b")
    let mac = HMACSHA256.authenticate(input, key: key)
    #expect(!JWSVerificationKey.hmac(key).verify(signature: mac, signingInput: input, algorithm: .hs256))
    #expect(throws: CryptoError.self) { try JWSVerificationKey.hmac(key).validate() }
    #expect(throws: CryptoError.self) { try JWSSigningKey.hmac(key).sign(input) }
  }

  @Test func rsaUnder2048BitsVerifiesNothing() throws {
    // The A.2 signature checked against a 1024-bit key; the size rule rejects before any math.
    let small = JWSVerificationKey.rsa(modulus: Array(RFC7515.rsaModulus.prefix(128)), exponent: RFC7515.rsaExponent)
    #expect(throws: CryptoError.self) { try small.validate() }
    let parts = try JWSCompact.split(RFC7515.rs256Token)
    #expect(!parts.verify(with: small, algorithm: .rs256))
  }

  @Test func ecPointOffTheCurveIsRejected() throws {
    var y = RFC7515.ecY
    y[31] ^= 0x01
    let key = JWSVerificationKey.ecP256(x: RFC7515.ecX, y: y)
    #expect(throws: CryptoError.self) { try key.validate() }
    let parts = try JWSCompact.split(RFC7515.es256Token)
    #expect(!parts.verify(with: key, algorithm: .es256))
  }

  @Test func es256NeedsRaw64ByteSignatures() throws {
    let parts = try JWSCompact.split(RFC7515.es256Token)
    let signature = parts.signature
    #expect(signature.count == 64)
    for wrong in [Array(signature.dropLast()), signature + [0], [0x30, 0x44] + signature] {
      #expect(!RFC7515.ecKey.verify(signature: wrong, signingInput: parts.signingInput, algorithm: .es256))
    }
    // r = 0 is outside [1, n-1]; libcrypto must refuse it, not crash.
    let zeroR = [UInt8](repeating: 0, count: 32) + signature.suffix(32)
    #expect(!RFC7515.ecKey.verify(signature: zeroR, signingInput: parts.signingInput, algorithm: .es256))
  }

  @Test func ecCoordinatesMustBeFullWidth() {
    #expect(throws: CryptoError.self) {
      try JWSVerificationKey.ecP256(x: Array(RFC7515.ecX.dropFirst()), y: RFC7515.ecY).validate()
    }
  }

  @Test func ed25519PublicKeyMustBe32Bytes() {
    #expect(throws: CryptoError.self) {
      try JWSVerificationKey.ed25519(publicKey: [UInt8](repeating: 1, count: 31)).validate()
    }
  }
}
