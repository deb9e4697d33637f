import Testing

@testable import AuthCrypto

/// RFC 6238 Appendix B's SHA-1 test vectors (8 digits, the seed "12345678901234567890"), and the 6-digit form
/// authenticator apps show, which is the same number's last six digits.
@Suite struct TOTPTests {
  static let seed = SecretBytes(Array("12345678901234567890".utf8))

  @Test(arguments: [
    (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
    (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
  ])
  func rfc6238Vectors(time: Int64, expected: String) {
    #expect(TOTP.code(secret: Self.seed, step: TOTP.step(at: time), digits: 8) == expected)
    #expect(TOTP.code(secret: Self.seed, step: TOTP.step(at: time)) == String(expected.suffix(6)))
  }

  @Test func base32IsRFC4648WithoutPadding() {
    #expect(Base32.encode(Array("12345678901234567890".utf8)) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
    #expect(Base32.encode([]) == "")
  }
}
