import AuthCrypto
import Testing

@Suite struct SecretBytesTests {
  static let canary: [UInt8] = Array("hunter2-canary".utf8)

  @Test func neverPrintsItsBytes() {
    let secret = SecretBytes(Self.canary)
    let renderings = [
      String(describing: secret), String(reflecting: secret), "\(secret)", "\([secret])",
      String(describing: JWSSigningKey.hmac(secret)), String(reflecting: JWSVerificationKey.hmac(secret)),
    ]
    var dumped = ""
    dump(secret, to: &dumped)
    for text in renderings + [dumped] {
      #expect(!text.contains("hunter2"))
      #expect(!text.contains("104"))  // "h" as a decimal byte
      #expect(!text.contains("68"))  // "h" in hex
    }
    #expect(String(describing: secret) == "<redacted>")
  }

  @Test func holdsACopy() {
    var source = Self.canary
    let secret = SecretBytes(source)
    source[0] = 0
    #expect(secret.count == Self.canary.count)
    #expect(secret.withUnsafeBytes(Array.init) == Self.canary)
  }

  @Test func emptySecret() {
    let secret = SecretBytes([])
    #expect(secret.count == 0)
    #expect(secret.withUnsafeBytes { $0.isEmpty })
  }

  @Test func randomSecrets() throws {
    let a = try SecretBytes(randomCount: 32)
    let b = try SecretBytes(randomCount: 32)
    #expect(a.count == 32)
    #expect(!a.constantTimeEquals(b))
    #expect(try SecretBytes(randomCount: 0).count == 0)
  }
}
