import Testing

@testable import AuthCrypto

@Suite struct AESGCMTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let key: String
    let nonce: String
    let plaintext: String
    let associatedData: String
    let ciphertext: String
    let tag: String
    var testDescription: String { name }
  }

  /// The GCM specification's AES-256 test cases (McGrew and Viega, "The Galois/Counter Mode of Operation",
  /// test cases 13, 14 and 16), which NIST's GCM validation suite also uses.
  static let vectors: [Vector] = [
    Vector(
      name: "test case 13", key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
      plaintext: "", associatedData: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
    Vector(
      name: "test case 14", key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
      plaintext: String(repeating: "00", count: 16), associatedData: "",
      ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
    Vector(
      name: "test case 16",
      key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
      nonce: "cafebabefacedbaddecaf888",
      plaintext: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
      associatedData: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
      ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
        + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
      tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
  ]

  @Test(arguments: vectors)
  func knownAnswer(vector: Vector) throws {
    let key = SecretBytes(hex(vector.key))
    let sealed = try AESGCM.seal(
      hex(vector.plaintext), key: key, nonce: hex(vector.nonce), associatedData: hex(vector.associatedData))
    #expect(sealed == hex(vector.nonce) + hex(vector.ciphertext) + hex(vector.tag))
    #expect(try AESGCM.open(sealed, key: key, associatedData: hex(vector.associatedData)) == hex(vector.plaintext))
  }

  @Test(arguments: [0, 1, 15, 16, 17, 1000])
  func roundTrip(length: Int) throws {
    let key = try SecretBytes(randomCount: 32)
    let plaintext = try RandomBytes.generate(length)
    let sealed = try AESGCM.seal(plaintext, key: key, associatedData: bytes("profile:default"))
    #expect(sealed.count == 12 + length + 16)
    #expect(try AESGCM.open(sealed, key: key, associatedData: bytes("profile:default")) == plaintext)
  }

  @Test func freshNonceEachTime() throws {
    let key = try SecretBytes(randomCount: 32)
    let first = try AESGCM.seal(bytes("same"), key: key, associatedData: [])
    let second = try AESGCM.seal(bytes("same"), key: key, associatedData: [])
    #expect(first.prefix(12) != second.prefix(12))
    #expect(first != second)
  }

  /// Flipping one bit anywhere (nonce, ciphertext or tag) must be caught.
  @Test(arguments: [0, 11, 12, 20, 12 + 31, 12 + 32, 12 + 32 + 15])
  func tamperedByteRejected(index: Int) throws {
    let key = try SecretBytes(randomCount: 32)
    var sealed = try AESGCM.seal([UInt8](repeating: 0x42, count: 32), key: key, associatedData: bytes("ad"))
    sealed[index] ^= 0x01
    let error = #expect(throws: CryptoError.self) { try AESGCM.open(sealed, key: key, associatedData: bytes("ad")) }
    #expect(error?.isAuthenticationFailure == true)
  }

  @Test func changedAssociatedDataRejected() throws {
    let key = try SecretBytes(randomCount: 32)
    let sealed = try AESGCM.seal(bytes("token"), key: key, associatedData: bytes("profile:a"))
    for associatedData in [bytes("profile:b"), [], bytes("profile:a ")] {
      let error = #expect(throws: CryptoError.self) {
        try AESGCM.open(sealed, key: key, associatedData: associatedData)
      }
      #expect(error?.isAuthenticationFailure == true)
    }
  }

  @Test func wrongKeyRejected() throws {
    let sealed = try AESGCM.seal(bytes("token"), key: try SecretBytes(randomCount: 32), associatedData: [])
    let error = #expect(throws: CryptoError.self) {
      try AESGCM.open(sealed, key: try SecretBytes(randomCount: 32), associatedData: [])
    }
    #expect(error?.isAuthenticationFailure == true)
  }

  @Test func truncatedBoxIsMalformed() throws {
    let key = try SecretBytes(randomCount: 32)
    let sealed = try AESGCM.seal([], key: key, associatedData: [])
    let error = #expect(throws: CryptoError.self) {
      try AESGCM.open(Array(sealed.dropLast()), key: key, associatedData: [])
    }
    #expect(error?.isMalformedInput == true)
  }

  @Test(arguments: [0, 16, 31, 33])
  func keyMustBe32Bytes(count: Int) {
    let error = #expect(throws: CryptoError.self) {
      try AESGCM.seal(bytes("x"), key: SecretBytes([UInt8](repeating: 1, count: count)), associatedData: [])
    }
    #expect(error?.code == .invalidKey)
  }

  @Test func secretsSealAndOpenWithoutLeavingTheirBuffer() throws {
    let key = try SecretBytes(randomCount: 32)
    let token = SecretBytes(bytes("refresh-token-value"))
    let sealed = try AESGCM.seal(token, key: key, associatedData: bytes("row 1"))
    let opened = try AESGCM.openSecret(sealed, key: key, associatedData: bytes("row 1"))
    #expect(opened.constantTimeEquals(token))
    #expect(try AESGCM.open(sealed, key: key, associatedData: bytes("row 1")) == bytes("refresh-token-value"))
    let error = #expect(throws: CryptoError.self) {
      try AESGCM.openSecret(sealed, key: key, associatedData: bytes("row 2"))
    }
    #expect(error?.isAuthenticationFailure == true)
  }
}
