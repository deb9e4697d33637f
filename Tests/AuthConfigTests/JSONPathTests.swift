import Testing

@testable import AuthConfig

@Suite struct JSONPathTests {
  static func path(_ keys: String...) -> JSONPath {
    keys.reduce(JSONPath.root) { $0.appending($1) }
  }

  @Test func plainKeysJoinWithDots() {
    #expect(JSONPath.root.description == "")
    #expect(
      Self.path("profiles", "work-1", "local", "accessTokenTTLSeconds").description
        == "profiles.work-1.local.accessTokenTTLSeconds")
  }

  @Test func otherKeysAreBracketedSoDotsStayUnambiguous() {
    #expect(Self.path("profiles", "eu.prod", "provider").description == #"profiles["eu.prod"].provider"#)
    #expect(Self.path("a b").description == #"["a b"]"#)
    #expect(Self.path("profiles", "").description == #"profiles[""]"#)
  }

  @Test func quotesBackslashesAndControlsAreEscaped() {
    #expect(Self.path(#"a"b\c"#).description == #"["a\"b\\c"]"#)
    #expect(Self.path("x\u{1B}[2Ky\n").description == #"["x\u{1b}[2Ky\u{a}"]"#)
    #expect(Self.path("rtl\u{202E}txt").description == #"["rtl\u{202e}txt"]"#)
    #expect(Self.path("line\u{2028}sep").description == #"["line\u{2028}sep"]"#)
  }

  @Test func longKeysAreCut() {
    let key = String(repeating: "k", count: 65)
    #expect(Self.path(key).description == "[\"" + String(repeating: "k", count: 64) + "…\"]")
    #expect(Self.path(String(repeating: "k", count: 64)).description == String(repeating: "k", count: 64))
  }
}
