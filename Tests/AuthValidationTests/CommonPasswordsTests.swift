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
    #expect(CommonPasswords.set.count == CommonPasswords.entries.count)
  }

  @Test func maxLengthIsTheLongestEntry() {
    #expect(CommonPasswords.maxLength == CommonPasswords.entries.map(\.utf8.count).max())
  }

  @Test(arguments: ["password", "PASSWORD", "Password1", "iLoveYou", "QWERTYUIOP", "WoAiNi1314", "123456"])
  func lookupIgnoresASCIICase(password: String) {
    #expect(CommonPasswords.contains(password))
  }

  @Test(arguments: ["", "passwordpassword-not-listed", "pässword", "password ", "correct horse battery staple"])
  func otherPasswordsAreNotListed(password: String) {
    #expect(!CommonPasswords.contains(password))
  }
}
