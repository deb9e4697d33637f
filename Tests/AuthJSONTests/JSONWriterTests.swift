import Testing

@testable import AuthJSON

@Suite struct JSONWriterTests {
  @Test func writesCompactlyInMemberOrder() {
    let value: JSONValue = .object(["z": 1, "a": [true, false, nil], "m": .object([:]), "e": []])
    #expect(JSONWriter.string(value) == #"{"z":1,"a":[true,false,null],"m":{},"e":[]}"#)
  }

  @Test(arguments: [
    ("plain", #""plain""#),
    ("quote \" backslash \\", #""quote \" backslash \\""#),
    ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
    ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
    ("slash / stays", #""slash / stays""#),
    ("é中😀", "\"é中😀\""),
    ("\u{7F}\u{2028}", "\"\u{7F}\u{2028}\""),
    ("", #""""#),
    ("\"", #""\"""#),
    ("a\nb\"c\\d\u{1B}e", #""a\nb\"c\\d\u001be""#),
  ])
  func escapesStrings(raw: String, json: String) throws {
    #expect(JSONWriter.string(.string(raw)) == json)
    #expect(try JSONParser.parse(json) == .string(raw), "the escaped form parses back")
  }

  @Test func escapesKeysToo() {
    #expect(JSONWriter.string(.object(["a\"\n": 1])) == #"{"a\"\n":1}"#)
  }

  @Test func everyControlCharacterRoundTrips() throws {
    let raw = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
    let written = JSONWriter.string(.string(raw))
    #expect(!written.utf8.contains { $0 < 0x20 }, "output stays on one line")
    #expect(try JSONParser.parse(written) == .string(raw))
  }

  @Test func numbersAreWrittenAsTheirLexeme() {
    #expect(JSONWriter.string(.number(JSONNumber(validatedText: "1.50"))) == "1.50")
    #expect(JSONWriter.string(.number(JSONNumber(validatedText: "-0"))) == "-0")
    #expect(JSONWriter.string(.number(JSONNumber(-42))) == "-42")
    #expect(JSONWriter.string(.number(JSONNumber(Int64.max))) == "9223372036854775807")
  }

  @Test func writeAppendsToAnExistingBuffer() {
    var out = Array("x".utf8)
    JSONWriter.write(["a"], into: &out)
    JSONWriter.writeString("b", into: &out)
    #expect(String(decoding: out, as: UTF8.self) == #"x["a"]"b""#)
  }

  @Test func writerOutputIsStableThroughTheParser() throws {
    let text = #"{"id":1.50,"s":"\u00e9\ud83d\ude00\n","n":[-0,1E400,123456789012345678901234567890],"o":{"a":null}}"#
    let once = JSONWriter.encode(try JSONParser.parse(text))
    let twice = JSONWriter.encode(try JSONParser.parse(once))
    #expect(once == twice)
    #expect(
      String(decoding: once, as: UTF8.self)
        == "{\"id\":1.50,\"s\":\"é😀\\n\",\"n\":[-0,1E400,123456789012345678901234567890],\"o\":{\"a\":null}}")
  }
}
