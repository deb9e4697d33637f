import Testing

@testable import AuthValidation

@Suite struct TrimmingTests {
  @Test(arguments: [
    ("alice", "alice"), ("  alice  ", "alice"), ("\t\n\r\u{B}\u{C}alice\n", "alice"), ("\u{A0}alice\u{A0}", "alice"),
    ("\u{3000}张三\u{3000}", "张三"), ("\u{2028}a\u{2029}", "a"), ("\u{85}a\u{1680}", "a"), ("\u{2003}a b\u{202F}", "a b"),
    ("a  b", "a  b"), ("", ""), ("   ", ""), ("\u{3000}", ""), (" x", "x"), ("x ", "x"),
  ])
  func trimsUnicodeWhiteSpaceAtBothEnds(input: String, expected: String) {
    #expect(String(trimmingWhitespace(input)) == expected)
  }

  @Test(arguments: ["\u{200B}a\u{200B}", "\u{FEFF}a", "\u{0}a\u{0}", "\u{180E}a"])
  func keepsFormatAndControlCharactersThatAreNotWhiteSpace(input: String) {
    #expect(String(trimmingWhitespace(input)) == input)
  }

  @Test func slicesByScalarSoACombiningMarkAfterSpaceSurvives() {
    let trimmed = trimmingWhitespace(" \u{301}a ")
    #expect(Array(trimmed.unicodeScalars) == ["\u{301}", "a"])
  }

  @Test func emojiAndCJKAreKeptWhole() {
    #expect(String(trimmingWhitespace(" 👨‍👩‍👧 ")) == "👨‍👩‍👧")
    #expect(String(trimmingWhitespace("用户")) == "用户")
  }
}
