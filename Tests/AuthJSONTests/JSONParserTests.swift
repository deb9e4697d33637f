import Testing

@testable import AuthJSON

@Suite struct JSONParserTests {
  // MARK: Values

  @Test func parsesEveryKindOfValue() throws {
    let value = try JSONParser.parse(#" {"a": [1, "x", true, false, null, {}, []]} "#)
    #expect(
      value
        == .object(["a": [1, "x", true, false, nil, .object([:]), []]]))
  }

  @Test(arguments: ["0", "-0", "1.50", "1E400", "-1e-400", "123456789012345678901234567890", "0.0", "1e+2", "2.5E-3"])
  func numbersKeepTheirLexeme(text: String) throws {
    let value = try JSONParser.parse(text)
    #expect(value == .number(JSONNumber(validatedText: text)))
    #expect(JSONWriter.string(value) == text)
  }

  @Test func numberConversionsAreOnDemand() throws {
    guard case .number(let big)? = try? JSONParser.parse("123456789012345678901234567890") else {
      Issue.record("not a number")
      return
    }
    #expect(big.int64Value == nil)
    #expect(big.doubleValue != nil)
    guard case .number(let huge) = try JSONParser.parse("1E400") else { return }
    #expect(huge.doubleValue == nil, "overflows to infinity")
    guard case .number(let small) = try JSONParser.parse("-9223372036854775808") else { return }
    #expect(small.int64Value == Int64.min)
    guard case .number(let fraction) = try JSONParser.parse("1.50") else { return }
    #expect(fraction.int64Value == nil)
    #expect(fraction.doubleValue == 1.5)
  }

  @Test(arguments: [
    "01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "1E-", "0x10", "NaN", "Infinity", "-Infinity", "1.e3", "--1",
    "1 2",
  ])
  func malformedNumbersAreRejected(text: String) {
    #expect(JSONTestSupport.failure(text)?.reason == .syntax)
  }

  // MARK: Strings and escapes

  @Test(arguments: [
    (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
    (#""\u0041\u00e9\u4E2D""#, "Aé中"),
    (#""\ud83d\ude00""#, "😀"),
    (#""\uD834\uDD1E""#, "\u{1D11E}"),
    (#""a\u0000b""#, "a\u{0}b"),
    (#""\uFFFF""#, "\u{FFFF}"),
    (#""plain ascii""#, "plain ascii"),
    ("\"é中😀\"", "é中😀"),
    ("\"é\\n中\"", "é\n中"),
  ])
  func escapesDecode(json: String, expected: String) throws {
    #expect(try JSONParser.parse(json) == .string(expected))
  }

  @Test(arguments: [
    #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\ud800\""#, #""\udfff\ud800""#,
    #""\ud800\ud800""#, #""\uDBFF""#,
  ])
  func loneSurrogatesAreRejected(json: String) {
    #expect(JSONTestSupport.failure(json)?.reason == .syntax)
  }

  @Test(arguments: [#""\x""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\'""#, #""abc"#, #""\"#, #"""#])
  func badEscapesAndUnterminatedStringsAreRejected(json: String) {
    #expect(JSONTestSupport.failure(json)?.reason == .syntax)
  }

  static let invalidUTF8: [[UInt8]] = [
    [0xC0, 0xAF],  // overlong "/"
    [0xC1, 0xBF],  // overlong
    [0xE0, 0x80, 0xAF],  // overlong, 3 bytes
    [0xF0, 0x80, 0x80, 0xAF],  // overlong, 4 bytes
    [0xED, 0xA0, 0x80],  // U+D800 encoded
    [0xED, 0xBF, 0xBF],  // U+DFFF encoded
    [0xE2, 0x82],  // truncated €
    [0xF0, 0x9F, 0x98],  // truncated 😀
    [0x80],  // lone continuation byte
    [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
    [0xF5, 0x80, 0x80, 0x80],
    [0xFF],
    [0xFE],
  ]

  @Test(arguments: invalidUTF8)
  func invalidUTF8InStringsIsRejected(sequence: [UInt8]) {
    // In a plain string (fast path), after an escape (slow path), and as the whole text.
    let plain = [UInt8(ascii: "\"")] + sequence + [UInt8(ascii: "\"")]
    let escaped = Array(#""\n"#.utf8) + sequence + [UInt8(ascii: "\"")]
    let key = Array(#"{""#.utf8) + sequence + Array(#"":1}"#.utf8)
    #expect(JSONTestSupport.failure(plain)?.reason == .syntax)
    #expect(JSONTestSupport.failure(escaped)?.reason == .syntax)
    #expect(JSONTestSupport.failure(key)?.reason == .syntax)
    #expect(JSONTestSupport.failure(sequence)?.reason == .syntax)
  }

  @Test func controlCharactersMustBeEscaped() {
    for byte in UInt8(0)..<0x20 {
      let plain: [UInt8] = [0x22, 0x61, byte, 0x62, 0x22]
      let afterEscape: [UInt8] = Array(#""\t"#.utf8) + [byte, 0x22]
      #expect(JSONTestSupport.failure(plain)?.reason == .syntax, "raw byte \(byte) in a string")
      #expect(JSONTestSupport.failure(afterEscape)?.reason == .syntax, "raw byte \(byte) after an escape")
    }
    #expect(JSONTestSupport.failure([0x7B, 0x00, 0x7D])?.reason == .syntax, "NUL between tokens")
    #expect(JSONTestSupport.failure([0x31, 0x00])?.reason == .syntax, "NUL after a value")
    #expect(JSONTestSupport.failure([0x00])?.reason == .syntax, "NUL alone")
    // DEL is not a control character in JSON.
    #expect(JSONTestSupport.failure([0x22, 0x7F, 0x22]) == nil)
  }

  // MARK: Structure

  @Test(arguments: [
    "", " ", "\n", "{} x", "1 2", "[]]", "{}{}", "\"a\"b", "truex", "nul", "1,", "[1,]", "{\"a\":1,}",
    "[1 2]", "{\"a\" 1}", "{a:1}", "{'a':1}", "/* */ 1", "1 // c", "\u{FEFF}{}", "[", "{", "{\"a\"", "{\"a\":",
    "\u{0C}1",
    "TRUE", "[,1]", "{,}", "[1,,2]", "{\"a\":1 \"b\":2}",
  ])
  func malformedTextIsASyntaxError(text: String) {
    #expect(JSONTestSupport.failure(text)?.reason == .syntax)
  }

  @Test func surroundingWhiteSpaceIsAllowed() throws {
    #expect(try JSONParser.parse(" \t\r\n[ 1 , 2 ]\r\n ") == [1, 2])
  }

  @Test func errorsCarryAnOffsetAndNoInput() {
    let error = JSONTestSupport.failure(#"{"password": "hunter2" x}"#)
    #expect(error?.reason == .syntax)
    #expect(error?.offset == 23)
    #expect(error.map { !$0.description.contains("hunter2") } == true)
  }

  // MARK: Duplicate keys

  @Test func duplicateKeysAreFlaggedAndKept() throws {
    let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
    let object = try #require(value.objectValue)
    #expect(object.hasDuplicateKeys)
    #expect(object.keys == ["a", "b", "a"])
    #expect(object["a"] == 1, "lookups see the first member")
  }

  @Test func duplicateFlagBelongsToTheObjectThatRepeats() throws {
    let outer = try #require(try JSONParser.parse(#"{"x":{"a":1,"a":2},"y":{"a":1}}"#).objectValue)
    #expect(!outer.hasDuplicateKeys)
    #expect(outer["x"]?.objectValue?.hasDuplicateKeys == true)
    #expect(outer["y"]?.objectValue?.hasDuplicateKeys == false)
    // Keys are compared after unescaping.
    let escaped = try #require(try JSONParser.parse(#"{"a":1,"\u0061":2}"#).objectValue)
    #expect(escaped.hasDuplicateKeys)
  }

  // MARK: Depth

  @Test func depthLimitIs64ByDefault() throws {
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(64)) == nil)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(65))?.reason == .tooDeep)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedObjects(64)) == nil)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedObjects(65))?.reason == .tooDeep)
    // Scalars inside the deepest container do not count as a level.
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(64, inner: #"1,"x",{}"#)) != nil)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(64, inner: #"1,"x",null"#)) == nil)
  }

  @Test func depthLimitIsConfigurable() {
    #expect(JSONTestSupport.failure("[[1]]", maxDepth: 2) == nil)
    #expect(JSONTestSupport.failure("[[[1]]]", maxDepth: 2)?.reason == .tooDeep)
    #expect(JSONTestSupport.failure(#"{"a":[1]}"#, maxDepth: 1)?.reason == .tooDeep)
    #expect(JSONTestSupport.failure("1", maxDepth: 0) == nil)
  }

  @Test("100,000 unclosed [ is .syntax, without crashing")
  func hugeUnclosedNestingIsASyntaxError() {
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(100_000, closed: false))?.reason == .syntax)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedObjects(100_000, closed: false))?.reason == .syntax)
  }

  @Test("100,000 balanced [ … ] is .tooDeep, without crashing")
  func hugeBalancedNestingIsTooDeep() {
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(100_000))?.reason == .tooDeep)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedObjects(100_000))?.reason == .tooDeep)
    #expect(
      JSONTestSupport.failure(JSONTestSupport.nestedArrays(100_000, inner: #"1,"x",{"k":[true]}"#))?.reason == .tooDeep)
  }

  @Test func pastTheLimitTheRestOfTheTextStillDecidesSyntax() {
    // A broken document that is also too deep is "not JSON" (-32700), not "too deep".
    let deep = JSONTestSupport.nestedArrays(70)
    #expect(JSONTestSupport.failure(deep + Array(" x".utf8))?.reason == .syntax, "garbage after")
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: "01"))?.reason == .syntax, "bad number")
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: #""\ud800""#))?.reason == .syntax)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: "1,]"))?.reason == .syntax)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: #"{"a" 1}"#))?.reason == .syntax)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: #"{"a":1,}"#))?.reason == .syntax)
    #expect(JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: "\"a\u{1}\""))?.reason == .syntax)
    #expect(
      JSONTestSupport.failure(JSONTestSupport.nestedArrays(70, inner: #""a\"b", "\\", {"k\"":[]}"#))?.reason == .tooDeep
    )
    var mismatched = JSONTestSupport.nestedArrays(70)
    mismatched[mismatched.count - 1] = UInt8(ascii: "}")
    #expect(JSONTestSupport.failure(mismatched)?.reason == .syntax, "] closed by }")
    // A syntax error before the depth limit is reached is reported as such, whatever follows.
    #expect(JSONTestSupport.failure(Array("[1,,".utf8) + JSONTestSupport.nestedArrays(100))?.reason == .syntax)
  }
}
