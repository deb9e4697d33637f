import Testing

@testable import AuthCrypto

@Suite struct KeyDerivationTests {
  /// RFC 7914 §11.
  @Test func pbkdf2OneIteration() throws {
    let key = try KeyDerivation.pbkdf2SHA256(
      password: SecretBytes(bytes("passwd")), salt: bytes("salt"), iterations: 1, keyByteCount: 64)
    let expected = hex(
      "55 ac 04 6e 56 e3 08 9f ec 16 91 c2 25 44 b6 05 f9 41 85 21 6d de 04 65 e6 8b 9d 57 c2 0d ac bc"
        + "49 ca 9c cc f1 79 b6 45 99 16 64 b3 9d 77 ef 31 7c 71 b8 45 b1 e3 0b d5 09 11 20 41 d3 a1 97 83")
    #expect(key.withUnsafeBytes(Array.init) == expected)
  }

  /// RFC 7914 §11.
  @Test func pbkdf2EightyThousandIterations() throws {
    let key = try KeyDerivation.pbkdf2SHA256(
      password: SecretBytes(bytes("Password")), salt: bytes("NaCl"), iterations: 80_000, keyByteCount: 64)
    let expected = hex(
      "4d dc d8 f6 0b 98 be 21 83 0c ee 5e f2 27 01 f9 64 1a 44 18 d0 4c 04 14 ae ff 08 87 6b 34 ab 56"
        + "a1 d4 25 a1 22 58 33 54 9a db 84 1b 51 c9 b3 17 6a 27 2b de bb a1 d0 78 47 8f 62 b3 97 f3 3c 8d")
    #expect(key.withUnsafeBytes(Array.init) == expected)
  }

  struct ScryptVector: Sendable, CustomTestStringConvertible {
    let password: String
    let salt: String
    let logN: Int
    let r: Int
    let p: Int
    let key: String
    var testDescription: String { "N=2^\(logN) r=\(r) p=\(p)" }
  }

  /// RFC 7914 §12, without the N=2^20 vector (1 GiB, over `scryptMemoryLimit` by design).
  @Test(arguments: [
    ScryptVector(
      password: "", salt: "", logN: 4, r: 1, p: 1,
      key: "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"),
    ScryptVector(
      password: "password", salt: "NaCl", logN: 10, r: 8, p: 16,
      key: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"),
    ScryptVector(
      password: "pleaseletmein", salt: "SodiumChloride", logN: 14, r: 8, p: 1,
      key: "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
        + "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"),
  ])
  func scrypt(vector: ScryptVector) throws {
    let key = try KeyDerivation.scrypt(
      password: SecretBytes(bytes(vector.password)), salt: bytes(vector.salt),
      logN: vector.logN, r: vector.r, p: vector.p, keyByteCount: 64)
    #expect(key.withUnsafeBytes(Array.init) == hex(vector.key))
  }

  @Test func scryptRefusesMemoryOverTheLimit() {
    // RFC 7914's fourth vector, N=2^20 r=8: about 1 GiB.
    let error = #expect(throws: CryptoError.self) {
      try KeyDerivation.scrypt(
        password: SecretBytes(bytes("pleaseletmein")), salt: bytes("SodiumChloride"),
        logN: 20, r: 8, p: 1, keyByteCount: 64)
    }
    #expect(error?.code == .invalidParameters)
  }

  @Test(arguments: [(0, 1, 1), (4, 0, 1), (4, 1, 0), (4, 1 << 15, 1 << 15), (63, 1, 1), (4, Int.max, 2)])
  func scryptRefusesParametersOutOfRange(logN: Int, r: Int, p: Int) {
    #expect(throws: CryptoError.self) {
      try KeyDerivation.scrypt(password: SecretBytes([]), salt: [], logN: logN, r: r, p: p, keyByteCount: 32)
    }
  }

  @Test func pbkdf2RefusesZeroIterationsAndEmptyKey() {
    #expect(throws: CryptoError.self) {
      try KeyDerivation.pbkdf2SHA256(password: SecretBytes([1]), salt: [2], iterations: 0, keyByteCount: 32)
    }
    #expect(throws: CryptoError.self) {
      try KeyDerivation.pbkdf2SHA256(password: SecretBytes([1]), salt: [2], iterations: 1, keyByteCount: 0)
    }
  }
}
