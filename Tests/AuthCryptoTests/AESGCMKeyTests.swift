import Testing

@testable import AuthCrypto

@Suite struct AESGCMKeyTests {
  /// The kept contexts produce the GCM specification's answer once a nonce is given (test case 16), so the
  /// restart really replaces the nonce and the running state rather than continuing the last operation.
  @Test func restartedContextsGiveTheKnownAnswers() throws {
    let key = SecretBytes(hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
    let nonce = hex("cafebabefacedbaddecaf888")
    let plaintext = hex(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    let associatedData = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
    let expected =
      nonce
      + hex(
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
          + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
      + hex("76fc6ece0f4e1768cddf8853bb2d551b")
    let context = try CipherContext(encrypting: true, key: key, nonce: nil)
    for _ in 0..<3 {
      let sealed = try nonce.withUnsafeBytes { nonce in
        try context.restart(nonce: nonce)
        return try plaintext.withUnsafeBytes {
          try AESGCM.seal($0, on: context, nonce: nonce, associatedData: associatedData)
        }
      }
      #expect(sealed == expected)
    }
    let keyed = AESGCMKey(key)
    for _ in 0..<3 { #expect(try keyed.open(expected, associatedData: associatedData) == plaintext) }
  }

  @Test(arguments: [0, 1, 16, 17, 1000])
  func interchangeableWithOneShotSealing(length: Int) throws {
    let key = try SecretBytes(randomCount: 32)
    let keyed = AESGCMKey(key)
    let plaintext = try RandomBytes.generate(length)
    let sealed = try keyed.seal(plaintext, associatedData: bytes("sessions/access_token/default"))
    #expect(sealed.count == 12 + length + 16)
    #expect(try AESGCM.open(sealed, key: key, associatedData: bytes("sessions/access_token/default")) == plaintext)
    let oneShot = try AESGCM.seal(plaintext, key: key, associatedData: bytes("a"))
    #expect(try keyed.open(oneShot, associatedData: bytes("a")) == plaintext)
    #expect(try keyed.openSecret(oneShot, associatedData: bytes("a")).withUnsafeBytes { Array($0) } == plaintext)
  }

  /// More seals than one batch of pooled nonces: no nonce repeats.
  @Test func everySealHasItsOwnNonce() throws {
    let keyed = AESGCMKey(try SecretBytes(randomCount: 32))
    var nonces = Set<[UInt8]>()
    for _ in 0..<(NoncePool.batch * 5 + 3) {
      nonces.insert(Array(try keyed.seal(bytes("same"), associatedData: []).prefix(12)))
    }
    #expect(nonces.count == NoncePool.batch * 5 + 3)
  }

  /// A refused box leaves the kept decrypting context ready for the next one, and no plaintext behind.
  @Test func aRefusedBoxDoesNotSpoilTheNextOpen() throws {
    let keyed = AESGCMKey(try SecretBytes(randomCount: 32))
    let good = try keyed.seal(bytes("token"), associatedData: bytes("ad"))
    var tampered = good
    tampered[14] ^= 0x01
    do {
      let box = tampered
      let error = #expect(throws: CryptoError.self) { try keyed.open(box, associatedData: bytes("ad")) }
      #expect(error?.isAuthenticationFailure == true)
      #expect(throws: CryptoError.self) { try keyed.open(good, associatedData: bytes("other")) }
      #expect(try keyed.open(good, associatedData: bytes("ad")) == bytes("token"))
    }
    #expect(throws: CryptoError.self) { try keyed.open(Array(good.prefix(27)), associatedData: bytes("ad")) }
    #expect(try keyed.open(good, associatedData: bytes("ad")) == bytes("token"))
  }

  @Test func aKeyOfTheWrongSizeIsRefusedWhenUsed() throws {
    let keyed = AESGCMKey(SecretBytes([UInt8](repeating: 1, count: 16)))
    let error = #expect(throws: CryptoError.self) { try keyed.seal(bytes("x"), associatedData: []) }
    #expect(error?.code == .invalidKey)
    #expect(throws: CryptoError.self) { try keyed.open([UInt8](repeating: 0, count: 40), associatedData: []) }
  }

  /// Many threads sealing and opening under one key at once each get their own values back.
  @Test func concurrentUseKeepsEveryValueApart() async throws {
    let key = try SecretBytes(randomCount: 32)
    let keyed = AESGCMKey(key)
    let nonces = try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
      for worker in 0..<8 {
        group.addTask {
          var nonces: [[UInt8]] = []
          for index in 0..<200 {
            let plaintext = bytes("worker \(worker) value \(index)")
            let associatedData = bytes("\(worker)/\(index)")
            let sealed = try keyed.seal(plaintext, associatedData: associatedData)
            guard try keyed.open(sealed, associatedData: associatedData) == plaintext,
              try AESGCM.open(sealed, key: key, associatedData: associatedData) == plaintext
            else { throw CryptoError.authenticationFailed("round trip changed the value") }
            nonces.append(Array(sealed.prefix(12)))
          }
          return nonces
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(Set(nonces).count == 8 * 200)
  }
}
