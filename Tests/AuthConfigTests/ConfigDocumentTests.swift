import Testing

@testable import AuthConfig

/// Bytes that are not a JSON document the loader accepts.
@Suite struct ConfigDocumentTests {
  static func error(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ConfigError? {
    #expect(throws: ConfigError.self, sourceLocation: sourceLocation) {
      try ConfigLoader.parse(bytes, source: ConfigFixtures.source)
    }
  }

  static func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConfigError? {
    error(Array(text.utf8), sourceLocation: sourceLocation)
  }

  @Test(arguments: [
    (#"{"profiles": {"default": {"provider": "local",}}}"#, "expected a member name at line 1, column 47"),
    ("{\n  // comment\n}", "expected a member name at line 2, column 3"),
    (#"{"profiles": {"default": {"provider": 'local'}}}"#, "unexpected character at line 1, column 39"),
    (#"{"profiles": {}} {}"#, "unexpected data after the JSON value at line 1, column 18"),
    ("{\"profiles\": {\"d\u{e9}\u{e9}\": 01}}", "expected ',' or '}' at line 1, column 23"),
    ("{\"profiles\"", "expected ':' at line 1, column 12"),
    (#"{"profiles": -}"#, "invalid number at line 1, column 15"),
  ])
  func invalidJSONIsLocated(text: String, message: String) {
    let error = Self.error(text)
    #expect(error?.kind == .invalidJSON)
    #expect(error?.jsonPath == "")
    #expect(error?.message == "is not valid JSON: \(message)")
  }

  @Test func invalidUTF8IsInvalidJSON() {
    var bytes = Array(#"{"profiles": {"default": {"provider": "loc"#.utf8)
    bytes += [0xC3, 0x28]
    bytes += Array(#"al"}}}"#.utf8)
    let error = Self.error(bytes)
    #expect(error?.kind == .invalidJSON)
    #expect(error?.message == "is not valid JSON: invalid UTF-8 in string at line 1, column 40")
  }

  @Test func invalidUTF8OutsideStringsIsInvalidJSON() {
    let error = Self.error([0x7B, 0xFF, 0x7D])
    #expect(error?.kind == .invalidJSON)
  }

  @Test func aByteOrderMarkIsNamed() {
    let error = Self.error([0xEF, 0xBB, 0xBF] + Array(ConfigFixtures.local("").utf8))
    #expect(error?.kind == .invalidJSON)
    #expect(error?.message == "starts with a byte order mark; save it as UTF-8 without one")
  }

  @Test(arguments: ["", "  \n\t\r\n"])
  func anEmptyFileIsNamed(text: String) {
    let error = Self.error(text)
    #expect(error?.kind == .invalidJSON)
    #expect(error?.message.hasPrefix("is empty") == true)
  }

  @Test func deepNestingIsRefused() {
    let depth = 100
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let error = Self.error(text)
    #expect(error?.kind == .invalidJSON)
    #expect(error?.message == "is nested deeper than 64 levels at line 1, column 65")
  }

  @Test func moreThanOneMebibyteIsRefusedBeforeParsing() {
    let bytes = [UInt8](repeating: 0x20, count: ConfigLoader.maxFileBytes + 1)
    let error = Self.error(bytes)
    #expect(error?.kind == .tooLarge)
    #expect(error?.description == "\(ConfigFixtures.file): is larger than 1048576 bytes")
  }

  @Test func textPositionsCountScalarsNotBytes() {
    let bytes = Array("a\nbé€😀x".utf8)
    #expect(TextPosition(of: 0, in: bytes) == TextPosition(line: 1, column: 1))
    #expect(TextPosition(of: 2, in: bytes) == TextPosition(line: 2, column: 1))
    #expect(TextPosition(of: bytes.count - 1, in: bytes) == TextPosition(line: 2, column: 5))
    #expect(TextPosition(of: 999, in: bytes) == TextPosition(line: 2, column: 6))
  }
}
