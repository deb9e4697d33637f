import AuthCrypto
import Testing

@Suite struct HMACSHA256Tests {
  struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let key: [UInt8]
    let message: [UInt8]
    let mac: String
    var testDescription: String { name }
  }

  /// RFC 4231 §4. Case 5 is left out: it tests truncation to 128 bits, which we never do.
  static let vectors: [Vector] = [
    Vector(
      name: "case 1", key: [UInt8](repeating: 0x0b, count: 20), message: bytes("Hi There"),
      mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    Vector(
      name: "case 2", key: bytes("Jefe"), message: bytes("what do ya want for nothing?"),
      mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    Vector(
      name: "case 3", key: [UInt8](repeating: 0xaa, count: 20), message: [UInt8](repeating: 0xdd, count: 50),
      mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    Vector(
      name: "case 4", key: Array(1...25), message: [UInt8](repeating: 0xcd, count: 50),
      mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    Vector(
      name: "case 6", key: [UInt8](repeating: 0xaa, count: 131),
      message: bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
      mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    Vector(
      name: "case 7", key: [UInt8](repeating: 0xaa, count: 131),
      message: bytes(
        "This is a test using a larger than block-size key and a larger than block-size data."
          + " The key needs to be hashed before being used by the HMAC algorithm."),
      mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
  ]

  @Test(arguments: vectors)
  func rfc4231(vector: Vector) {
    let key = SecretBytes(vector.key)
    #expect(HMACSHA256.authenticate(vector.message, key: key) == hex(vector.mac))
    #expect(HMACSHA256.isValidAuthenticationCode(hex(vector.mac), authenticating: vector.message, key: key))
  }

  @Test func rejectsAlteredOrTruncatedCode() {
    let key = SecretBytes(bytes("Jefe"))
    let message = bytes("what do ya want for nothing?")
    var code = HMACSHA256.authenticate(message, key: key)
    #expect(!HMACSHA256.isValidAuthenticationCode(Array(code.prefix(16)), authenticating: message, key: key))
    code[31] ^= 1
    #expect(!HMACSHA256.isValidAuthenticationCode(code, authenticating: message, key: key))
  }

  @Test func emptyKeyAndMessage() {
    // Python: hmac.new(b"", b"", hashlib.sha256).hexdigest()
    let expected = hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    #expect(HMACSHA256.authenticate([], key: SecretBytes([])) == expected)
  }
}
