import AuthCrypto
import Testing

@Suite struct Base64Tests {
  /// RFC 4648 §10.
  @Test(arguments: [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
    ("foobar", "Zm9vYmFy"),
  ])
  func rfc4648(plain: String, encoded: String) {
    #expect(Base64.encode(bytes(plain)) == encoded)
    #expect(Base64.decode(encoded) == bytes(plain))
  }

  @Test func usesTheStandardAlphabet() {
    #expect(Base64.encode([0xfb, 0xff, 0xbf]) == "+/+/")
  }

  @Test(arguments: [
    "Zg",  // padding required
    "Zg=",
    "Zg===",
    "Z===",
    "====",
    "Zg=a",
    "Zm=v",
    "-_-_",  // URL alphabet
    "Zm9v\n",
    "Zm9v YmFy",
    "Zh==",  // non-zero trailing bits
    "Zm9=",
  ])
  func rejects(text: String) {
    #expect(Base64.decode(text) == nil)
  }

  @Test func roundTripsLargeInput() throws {
    // Larger than one libcrypto chunk, so chunk boundaries are exercised.
    let data = try RandomBytes.generate(3 * 16_384 * 2 + 7)
    #expect(Base64.decode(Base64.encode(data)) == data)
  }
}
