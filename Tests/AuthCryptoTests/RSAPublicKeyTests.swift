import Testing

@testable import AuthCrypto

/// Encryption to a server's RSA key. That the server can decrypt it is proven end to end against a server that
/// decrypts with Python's `cryptography` (RESTLegacyAPIEndToEndTests); here: which keys are taken, the block
/// sizes, and that nothing is deterministic.
@Suite struct RSAPublicKeyTests {
  static let spki = """
    -----BEGIN PUBLIC KEY-----
    MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAqCwWph5MFhiZEAjHTR7B
    /U0VswmBMZU91sI4Owpe/H3ZkpJ+F4Z8tg8mKMROLumj7dXun0sxxiKjE+OkVijE
    hVV5n1XRsi4D1vgx9LwZDW6ypeIv6N+ywPfJtMbzgEURjVP5Vl17rgw5v1a11m1b
    bA9kidBXuNAcbxgmjM4R71Vn0jX7M8cTVgbszXrmKyqOjT/2fhtrQDXzYtCYtXYy
    AKObg/c5ddoRpAudHxkLWNoe6SEA8O97ErS+1eQietcRuwscbZErgQ6KOWiTdxf/
    mInxqYNb2dAQ0PKNScM5xO+ZS1WC6GE72Zf3yTThImip76FY/M5zFoLE31+OMOMQ
    ZwIDAQAB
    -----END PUBLIC KEY-----
    """
  /// The same key as PKCS #1 `RSAPublicKey`.
  static let pkcs1 = """
    -----BEGIN RSA PUBLIC KEY-----
    MIIBCgKCAQEAqCwWph5MFhiZEAjHTR7B/U0VswmBMZU91sI4Owpe/H3ZkpJ+F4Z8
    tg8mKMROLumj7dXun0sxxiKjE+OkVijEhVV5n1XRsi4D1vgx9LwZDW6ypeIv6N+y
    wPfJtMbzgEURjVP5Vl17rgw5v1a11m1bbA9kidBXuNAcbxgmjM4R71Vn0jX7M8cT
    VgbszXrmKyqOjT/2fhtrQDXzYtCYtXYyAKObg/c5ddoRpAudHxkLWNoe6SEA8O97
    ErS+1eQietcRuwscbZErgQ6KOWiTdxf/mInxqYNb2dAQ0PKNScM5xO+ZS1WC6GE7
    2Zf3yTThImip76FY/M5zFoLE31+OMOMQZwIDAQAB
    -----END RSA PUBLIC KEY-----
    """
  static let rsa512 = """
    -----BEGIN PUBLIC KEY-----
    MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAL+OnqwF/OuuACrWcmP8LGnz/8+4VhQB
    ORFmOlE2udGd/GLG69fbssrbWOGd6WXs0f2WqDo82RCR+VUPNAgcy/cCAwEAAQ==
    -----END PUBLIC KEY-----
    """
  static let p256 = """
    -----BEGIN PUBLIC KEY-----
    MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEIjN8dPJvmXlhY/0DagVzGnLulHiW
    I2j5VSYfmiGAnZDDnx0ioZ5RajDUd3codsBU2iEDJ+jD3wrJOcv5fUv6aA==
    -----END PUBLIC KEY-----
    """

  @Test func bothPEMFormsGiveA2048BitKey() throws {
    #expect(try RSAPublicKey(pem: Self.spki).bits == 2048)
    #expect(try RSAPublicKey(pem: Self.pkcs1).bits == 2048)
  }

  @Test func otherKeysAndTextAreRefused() {
    for pem in [Self.rsa512, Self.p256, "", "not a key", String(Self.spki.dropLast(40))] {
      #expect(throws: CryptoError.self, "\(pem.prefix(30))") { try RSAPublicKey(pem: pem) }
    }
  }

  @Test(arguments: [RSAPublicKey.Padding.pkcs1, .oaepSHA256])
  func oneBlockOfTheKeySizeAndNeverTheSameTwice(_ padding: RSAPublicKey.Padding) throws {
    let key = try RSAPublicKey(pem: Self.spki)
    let first = try key.encrypt(Array("correct horse battery staple".utf8), padding: padding)
    let second = try key.encrypt(Array("correct horse battery staple".utf8), padding: padding)
    #expect(first.count == 256)
    #expect(second.count == 256)
    // Both paddings are randomized: equal ciphertexts would let anyone who sees two logins compare passwords.
    #expect(first != second)
  }

  @Test func aPlaintextLongerThanOneBlockIsRefused() throws {
    let key = try RSAPublicKey(pem: Self.spki)
    // PKCS #1 v1.5 takes 256 - 11 bytes, OAEP-SHA-256 256 - 66.
    #expect(try key.encrypt([UInt8](repeating: 0x61, count: 245), padding: .pkcs1).count == 256)
    #expect(throws: CryptoError.self) { try key.encrypt([UInt8](repeating: 0x61, count: 246), padding: .pkcs1) }
    #expect(try key.encrypt([UInt8](repeating: 0x61, count: 190), padding: .oaepSHA256).count == 256)
    #expect(throws: CryptoError.self) { try key.encrypt([UInt8](repeating: 0x61, count: 191), padding: .oaepSHA256) }
  }
}
