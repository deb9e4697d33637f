import Testing

@testable import AuthValidation

@Suite struct ASCIITests {
  @Test func byteClasses() {
    let all = (0...255).map(UInt8.init)
    #expect(all.filter(ASCII.isDigit) == Array("0123456789".utf8))
    #expect(all.filter(ASCII.isLetter) == Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8))
    #expect(all.filter(ASCII.isUppercase) == Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
    #expect(all.filter(ASCII.isControl) == Array(0...31) + [127])
  }

  @Test func lowercasingTouchesOnlyASCIILetters() {
    #expect(ASCII.lowercased("PassWORD-123_É".utf8) == "password-123_É")
    #expect(ASCII.lowercased("A LONGER STRING THAN FIFTEEN BYTES".utf8) == "a longer string than fifteen bytes")
    #expect(ASCII.lowercased("".utf8) == "")
  }

  @Test func codePointCount() {
    #expect(ASCII.codePointCount("".utf8) == 0)
    #expect(ASCII.codePointCount("abc".utf8) == 3)
    #expect(ASCII.codePointCount("密码👍é".utf8) == 4)
    #expect(ASCII.codePointCount("👨‍👩‍👧".utf8) == 5)
  }

  @Test func equalsIgnoringCase() {
    #expect(ASCII.equalsIgnoringCase("HaNt".utf8, "hant"))
    #expect(!ASCII.equalsIgnoringCase("hans".utf8, "hant"))
    #expect(!ASCII.equalsIgnoringCase("han".utf8, "hant"))
  }
}
