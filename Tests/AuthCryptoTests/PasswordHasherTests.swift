import Testing

@testable import AuthCrypto

@Suite struct PasswordHasherTests {
  static let fastPBKDF2 = PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 1000))
  static let fastScrypt = PasswordHasher(algorithm: .scrypt(logN: 4, r: 8, p: 1))

  /// Written by Python's hashlib from salt 00 01 … 0f and password "correct horse", so the format and the KDF
  /// are checked against an independent implementation.
  static let pythonPBKDF2 = "$pbkdf2-sha256$i=1000$AAECAwQFBgcICQoLDA0ODw$yRTMTwbMbo9G0VfjobWqerzuuxe7BETNTErBbKKumGQ"
  static let pythonScrypt = "$scrypt$ln=4,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$Q7EcH175P/kcU7JE2HRU+qTRrq/BS6UbCRYPdBaC5y8"

  @Test(arguments: [fastPBKDF2, fastScrypt])
  func roundTrip(hasher: PasswordHasher) throws {
    let encoded = try hasher.hash(password: "correct horse battery staple")
    #expect(try hasher.verify(password: "correct horse battery staple", encoded: encoded))
    #expect(try !hasher.verify(password: "correct horse battery stapl", encoded: encoded))
    #expect(try !hasher.verify(password: "", encoded: encoded))
    #expect(!hasher.needsRehash(encoded))
  }

  @Test func encodingShapes() throws {
    let pbkdf2 = try Self.fastPBKDF2.hash(password: "pw")
    let scrypt = try Self.fastScrypt.hash(password: "pw")
    #expect(pbkdf2.hasPrefix("$pbkdf2-sha256$i=1000$"))
    #expect(scrypt.hasPrefix("$scrypt$ln=4,r=8,p=1$"))
    for encoded in [pbkdf2, scrypt] {
      let fields = encoded.split(separator: "$")
      #expect(fields.count == 4)
      #expect(fields[2].count == 22)  // 16-byte salt, unpadded base64
      #expect(fields[3].count == 43)  // 32-byte hash
      #expect(!fields[2].contains("=") && !fields[3].contains("="))
    }
  }

  @Test func saltIsFreshEachTime() throws {
    #expect(try Self.fastPBKDF2.hash(password: "pw") != Self.fastPBKDF2.hash(password: "pw"))
  }

  @Test(arguments: [pythonPBKDF2, pythonScrypt])
  func verifiesHashesFromAnotherImplementation(encoded: String) throws {
    // Either algorithm verifies whatever this hasher's own default is.
    for hasher in [Self.fastPBKDF2, Self.fastScrypt, PasswordHasher.owasp] {
      #expect(try hasher.verify(password: "correct horse", encoded: encoded))
      #expect(try !hasher.verify(password: "correct horsE", encoded: encoded))
    }
  }

  @Test func secretBytesPasswords() throws {
    let password = SecretBytes(bytes("correct horse"))
    #expect(try Self.fastPBKDF2.verify(password: password, encoded: Self.pythonPBKDF2))
    let encoded = try Self.fastScrypt.hash(password: password)
    #expect(try Self.fastScrypt.verify(password: "correct horse", encoded: encoded))
  }

  @Test func nonASCIIPasswordsAreUTF8() throws {
    let encoded = try Self.fastPBKDF2.hash(password: "pässwörd 密码")
    #expect(try Self.fastPBKDF2.verify(password: "pässwörd 密码", encoded: encoded))
    #expect(try !Self.fastPBKDF2.verify(password: "passwörd 密码", encoded: encoded))
  }

  static let salt = "AAECAwQFBgcICQoLDA0ODw"
  static let hash = "yRTMTwbMbo9G0VfjobWqerzuuxe7BETNTErBbKKumGQ"

  @Test(arguments: [
    "",
    "$",
    "correct horse",
    "pbkdf2-sha256$i=1000$\(salt)$\(hash)",  // no leading $
    "$pbkdf2-sha256$i=1000$\(salt)",  // missing hash
    "$pbkdf2-sha256$i=1000$\(salt)$\(hash)$",  // extra field
    "$pbkdf2-sha256$i=1000$\(salt)$\(hash) ",  // trailing space
    "$pbkdf2-sha256$i=01000$\(salt)$\(hash)",  // leading zero
    "$pbkdf2-sha256$i=+1000$\(salt)$\(hash)",
    "$pbkdf2-sha256$i=-1$\(salt)$\(hash)",
    "$pbkdf2-sha256$i=$\(salt)$\(hash)",
    "$pbkdf2-sha256$i=1000000000000$\(salt)$\(hash)",  // too many digits
    "$pbkdf2-sha256$rounds=1000$\(salt)$\(hash)",
    "$pbkdf2-sha256$i=1000,x=1$\(salt)$\(hash)",
    "$pbkdf2-sha512$i=1000$\(salt)$\(hash)",  // unsupported algorithm
    "$PBKDF2-SHA256$i=1000$\(salt)$\(hash)",
    "$pbkdf2-sha256$i=1000$\(salt)==$\(hash)",  // padded base64
    "$pbkdf2-sha256$i=1000$AAECAw$\(hash)",  // salt too short
    "$pbkdf2-sha256$i=1000$\(salt)$AAECAwQFBgcICQ",  // hash too short
    "$pbkdf2-sha256$i=1000$\(salt)$yRTMTwbMbo9G0VfjobWqerzuuxe7BETNTErBbKKum_Q",  // URL alphabet
    "$scrypt$r=8,ln=4,p=1$\(salt)$\(hash)",  // parameter order
    "$scrypt$ln=4,r=8$\(salt)$\(hash)",
    "$scrypt$ln=4,r=8,p=1,$\(salt)$\(hash)",
    "$scrypt$ln=4;r=8;p=1$\(salt)$\(hash)",
  ])
  func malformedStringsThrow(encoded: String) {
    let error = #expect(throws: CryptoError.self) { try Self.fastPBKDF2.verify(password: "pw", encoded: encoded) }
    #expect(error?.isMalformedInput == true)
    #expect(error.map { !String(describing: $0).contains(Self.hash) } ?? true)
    #expect(Self.fastPBKDF2.needsRehash(encoded))
  }

  @Test(arguments: [
    "$pbkdf2-sha256$i=999999999$\(salt)$\(hash)",  // over maximumIterations
    "$scrypt$ln=30,r=8,p=1$\(salt)$\(hash)",  // over the scrypt memory limit
    "$scrypt$ln=4,r=65536,p=65536$\(salt)$\(hash)",  // r·p ≥ 2^30
  ])
  func excessiveParametersThrowWithoutRunning(encoded: String) {
    let error = #expect(throws: CryptoError.self) { try Self.fastPBKDF2.verify(password: "pw", encoded: encoded) }
    #expect(error?.code == .invalidParameters)
  }

  @Test func hashRefusesParametersItCouldNotVerify() {
    #expect(throws: CryptoError.self) {
      try PasswordHasher(algorithm: .pbkdf2SHA256(iterations: PasswordHasher.maximumIterations + 1)).hash(
        password: "pw")
    }
    #expect(throws: CryptoError.self) {
      try PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 0)).hash(password: "pw")
    }
    #expect(throws: CryptoError.self) {
      try PasswordHasher(algorithm: .scrypt(logN: 0, r: 8, p: 1)).hash(password: "pw")
    }
  }

  @Test func needsRehashWhenParametersDiffer() throws {
    #expect(PasswordHasher.owasp.needsRehash(Self.pythonPBKDF2))
    #expect(PasswordHasher.owasp.needsRehash(Self.pythonScrypt))
    #expect(!Self.fastPBKDF2.needsRehash(Self.pythonPBKDF2))
    #expect(Self.fastScrypt.needsRehash(Self.pythonPBKDF2))
    #expect(PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 2000)).needsRehash(Self.pythonPBKDF2))
    #expect(PasswordHasher(algorithm: .scrypt(logN: 5, r: 8, p: 1)).needsRehash(Self.pythonScrypt))
    // Same parameters, but an 8-byte salt is shorter than we write now.
    #expect(Self.fastPBKDF2.needsRehash("$pbkdf2-sha256$i=1000$AAECAwQFBgc$\(Self.hash)"))
  }

  /// The one test that pays for the real default (a few hundred milliseconds).
  @Test func owaspDefault() throws {
    #expect(PasswordHasher.owasp.algorithm == .pbkdf2SHA256(iterations: 600_000))
    let encoded = try PasswordHasher.owasp.hash(password: "correct horse battery staple")
    #expect(encoded.hasPrefix("$pbkdf2-sha256$i=600000$"))
    #expect(try PasswordHasher.owasp.verify(password: "correct horse battery staple", encoded: encoded))
    #expect(!PasswordHasher.owasp.needsRehash(encoded))
  }
}
