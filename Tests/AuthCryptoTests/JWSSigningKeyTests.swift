import AuthCrypto
import Testing

@Suite struct JWSSigningKeyTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let secretKey: String
    let publicKey: String
    let message: String
    let signature: String
    var testDescription: String { name }
  }

  /// RFC 8032 §7.1.
  @Test(arguments: [
    Vector(
      name: "TEST 1",
      secretKey: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
      message: "",
      signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25b"
        + "f5f0595bbe24655141438e7a100b"),
    Vector(
      name: "TEST 2",
      secretKey: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
      message: "72",
      signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b"
        + "2eaeb4302aeeb00d291612bb0c00"),
  ])
  func ed25519KnownAnswer(vector: Vector) throws {
    let key = JWSSigningKey.ed25519(privateKey: SecretBytes(hex(vector.secretKey)))
    #expect(key.algorithm == .edDSA)
    let verificationKey = try key.verificationKey()
    guard case .ed25519(let publicKey) = verificationKey else {
      Issue.record("expected an Ed25519 verification key")
      return
    }
    #expect(publicKey == hex(vector.publicKey))
    let signature = try key.sign(hex(vector.message))
    #expect(signature == hex(vector.signature))
    #expect(verificationKey.verify(signature: signature, signingInput: hex(vector.message), algorithm: .edDSA))
    #expect(!verificationKey.verify(signature: signature, signingInput: hex(vector.message) + [0], algorithm: .edDSA))
  }

  @Test func generatedKeysAreDistinct() throws {
    guard case .ed25519(let a) = try JWSSigningKey.generateEd25519(),
      case .ed25519(let b) = try JWSSigningKey.generateEd25519()
    else {
      Issue.record("expected Ed25519 keys")
      return
    }
    #expect(a.count == 32)
    #expect(!a.constantTimeEquals(b))
  }

  @Test func hmacKeyIsItsOwnVerificationKey() throws {
    let key = try JWSSigningKey.generateHMAC()
    #expect(key.algorithm == .hs256)
    let signature = try key.sign(bytes("input"))
    #expect(try key.verificationKey().verify(signature: signature, signingInput: bytes("input"), algorithm: .hs256))
  }

  @Test func ed25519PrivateKeyMustBe32Bytes() {
    let key = JWSSigningKey.ed25519(privateKey: SecretBytes([UInt8](repeating: 1, count: 31)))
    #expect(throws: CryptoError.self) { try key.sign([]) }
    #expect(throws: CryptoError.self) { try key.verificationKey() }
  }
}
