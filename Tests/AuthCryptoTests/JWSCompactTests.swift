import AuthCrypto
import Testing

@Suite struct JWSCompactTests {
  struct Example: Sendable, CustomTestStringConvertible {
    let token: String
    let algorithm: JWSAlgorithm
    let key: @Sendable () -> JWSVerificationKey
    var testDescription: String { algorithm.rawValue }
  }

  static let examples = [
    Example(token: RFC7515.hs256Token, algorithm: .hs256, key: { RFC7515.hmacKey }),
    Example(token: RFC7515.rs256Token, algorithm: .rs256, key: { RFC7515.rsaKey }),
    Example(token: RFC7515.es256Token, algorithm: .es256, key: { RFC7515.ecKey }),
  ]

  @Test(arguments: examples)
  func rfc7515ExampleVerifies(example: Example) throws {
    let parts = try JWSCompact.split(example.token)
    #expect(
      parts.payload == bytes("{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"))
    let lastDot = try #require(example.token.utf8.lastIndex(of: UInt8(ascii: ".")))
    #expect(parts.signingInput == Array(example.token.utf8[..<lastDot]))
    #expect(parts.verify(with: example.key(), algorithm: example.algorithm))
  }

  @Test(arguments: examples)
  func tamperedPayloadFails(example: Example) throws {
    let forged = example.token.replacingPayload(with: Base64URL.encode(bytes("{\"iss\":\"joe\",\"admin\":true}")))
    let parts = try JWSCompact.split(forged)
    #expect(!parts.verify(with: example.key(), algorithm: example.algorithm))
  }

  @Test(arguments: examples)
  func tamperedSignatureFails(example: Example) throws {
    let parts = try JWSCompact.split(example.token)
    var signature = parts.signature
    signature[signature.count / 2] ^= 0x01
    #expect(!example.key().verify(signature: signature, signingInput: parts.signingInput, algorithm: example.algorithm))
    #expect(!example.key().verify(signature: [], signingInput: parts.signingInput, algorithm: example.algorithm))
  }

  /// Each key serves exactly one algorithm, whatever the token's header claims.
  @Test(arguments: examples)
  func algorithmMismatchFails(example: Example) throws {
    let parts = try JWSCompact.split(example.token)
    for algorithm in [JWSAlgorithm.hs256, .edDSA, .rs256, .es256] where algorithm != example.algorithm {
      #expect(!parts.verify(with: example.key(), algorithm: algorithm))
    }
  }

  /// The classic confusion attack: an HS256 token whose MAC key is the issuer's public RSA modulus. It must
  /// not verify against that RSA key, whichever algorithm is passed.
  @Test func publicKeyAsHMACSecretFails() throws {
    let token = try JWSCompact.sign(
      header: bytes("{\"alg\":\"HS256\"}"), payload: bytes("{\"sub\":\"admin\"}"),
      key: .hmac(SecretBytes(RFC7515.rsaModulus)))
    let parts = try JWSCompact.split(token)
    #expect(!parts.verify(with: RFC7515.rsaKey, algorithm: .hs256))
    #expect(!parts.verify(with: RFC7515.rsaKey, algorithm: .rs256))
  }

  @Test func noneIsNotAnAlgorithm() {
    #expect(JWSAlgorithm(rawValue: "none") == nil)
    #expect(JWSAlgorithm(rawValue: "hs256") == nil)
    #expect(JWSAlgorithm(rawValue: "HS256") == .hs256)
  }

  @Test func hs256SigningReproducesRFCExample() throws {
    let parts = try JWSCompact.split(RFC7515.hs256Token)
    let token = try JWSCompact.sign(
      header: parts.header, payload: parts.payload, key: .hmac(SecretBytes(RFC7515.hs256Key)))
    #expect(token == RFC7515.hs256Token)
  }

  @Test func signAndVerifyRoundTrip() throws {
    for key in [try JWSSigningKey.generateEd25519(), try JWSSigningKey.generateHMAC()] {
      let header = bytes("{\"alg\":\"\(key.algorithm.rawValue)\"}")
      let token = try JWSCompact.sign(header: header, payload: bytes("{\"sub\":\"42\"}"), key: key)
      let parts = try JWSCompact.split(token)
      #expect(parts.header == header)
      #expect(parts.verify(with: try key.verificationKey(), algorithm: key.algorithm))
      #expect(!parts.verify(with: try JWSSigningKey.generateEd25519().verificationKey(), algorithm: key.algorithm))
    }
  }

  @Test func emptyPayloadIsAllowed() throws {
    let key = try JWSSigningKey.generateHMAC()
    let token = try JWSCompact.sign(header: bytes("{\"alg\":\"HS256\"}"), payload: [], key: key)
    let parts = try JWSCompact.split(token)
    #expect(parts.payload.isEmpty)
    #expect(parts.verify(with: try key.verificationKey(), algorithm: .hs256))
  }

  @Test(arguments: [
    "",
    ".",
    "..",
    "eyJhbGciOiJIUzI1NiJ9",
    "eyJhbGciOiJIUzI1NiJ9.e30",
    "eyJhbGciOiJIUzI1NiJ9.e30.",  // unsecured: no signature
    "eyJhbGciOiJub25lIn0.e30.",  // alg none
    ".e30.c2ln",  // empty header
    "eyJhbGciOiJIUzI1NiJ9.e30.c2ln.c2ln",  // four segments
    "eyJhbGciOiJIUzI1NiJ9.e30=.c2ln",  // padding
    "eyJhbGciOiJIUzI1NiJ9.e30.c2l+",  // standard alphabet
    "eyJhbGciOiJIUzI1NiJ9.e3 0.c2ln",
    "eyJhbGciOiJIUzI1NiJ9.e30.c2ln\n",
  ])
  func malformedTokensThrow(token: String) {
    let error = #expect(throws: CryptoError.self) { try JWSCompact.split(token) }
    #expect(error?.isMalformedInput == true)
  }
}

extension String {
  fileprivate func replacingPayload(with payload: String) -> String {
    let segments = split(separator: ".", omittingEmptySubsequences: false)
    return "\(segments[0]).\(payload).\(segments[2])"
  }
}
