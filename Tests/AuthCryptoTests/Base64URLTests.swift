import AuthCrypto
import Testing

@Suite struct Base64URLTests {
  /// RFC 4648 §10, without the padding base64url drops (RFC 7515 §2).
  @Test(arguments: [
    ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
    ("foobar", "Zm9vYmFy"),
  ])
  func rfc4648(plain: String, encoded: String) {
    #expect(Base64URL.encode(bytes(plain)) == encoded)
    #expect(Base64URL.decode(encoded) == bytes(plain))
  }

  @Test func usesTheURLAlphabet() {
    #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
    #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
  }

  @Test(arguments: [
    "Zg==",  // padding
    "Zg=",
    "+/+/",  // standard alphabet
    "Zm9v\n",  // whitespace
    " Zm9v",
    "Zm 9v",
    "Z",  // impossible length
    "Zm9vY",
    "Zh",  // non-zero trailing bits: a second spelling of "f"
    "Zm9",
    "Zm9v.",
    "Zm9vÿ",
  ])
  func rejects(text: String) {
    #expect(Base64URL.decode(text) == nil)
  }

  @Test func roundTripsEveryByteAndLength() throws {
    let all = [UInt8](0...255)
    for length in 0...all.count {
      let data = Array(all.prefix(length))
      #expect(Base64URL.decode(Base64URL.encode(data)) == data)
    }
    let large = try RandomBytes.generate(100_003)
    #expect(Base64URL.decode(Base64URL.encode(large)) == large)
  }
}
