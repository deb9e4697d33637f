import Testing

@testable import AuthValidation

@Suite struct CommonPasswordsTests {
  @Test func entriesAreUniqueLowerCaseASCII() {
    let entries = CommonPasswords.entries
    #expect(Set(entries).count == entries.count)
    for entry in entries {
      #expect(!entry.isEmpty)
      #expect(entry.utf8.allSatisfy { $0 < 0x80 && !ASCII.isUppercase($0) && !ASCII.isControl($0) }, "\(entry)")
    }
  }

  @Test func listCoversTheStandardMinimumWell() {
    #expect(CommonPasswords.entries.count(where: { $0.unicodeScalars.count >= 8 }) >= 250)
  }

  @Test func maxLengthIsTheLongestEntry() {
    #expect(CommonPasswords.maxLength == CommonPasswords.entries.map(\.utf8.count).max())
  }

  /// The binary search finds every entry (the first and last of each length included), in any ASCII case.
  @Test func everyEntryIsFound() {
    for entry in CommonPasswords.entries {
      #expect(CommonPasswords.contains(entry), "\(entry)")
      #expect(CommonPasswords.contains(entry.uppercased()), "\(entry)")
    }
  }

  @Test(arguments: ["password", "PASSWORD", "Password1", "iLoveYou", "QWERTYUIOP", "WoAiNi1314", "123456"])
  func lookupIgnoresASCIICase(password: String) {
    #expect(CommonPasswords.contains(password))
    var bytes = Array(password.utf8)
    #expect(bytes.withUnsafeMutableBytes { CommonPasswords.contains(utf8: UnsafeRawBufferPointer($0)) })
  }

  @Test(arguments: [
    "", "passwordpassword-not-listed", "pässword", "password ", "correct horse battery staple", "passwore", "0",
    "~~~~~~~~", "00000000000000000",
  ])
  func otherPasswordsAreNotListed(password: String) {
    #expect(!CommonPasswords.contains(password))
    var bytes = Array(password.utf8)
    #expect(!bytes.withUnsafeMutableBytes { CommonPasswords.contains(utf8: UnsafeRawBufferPointer($0)) })
  }
}
