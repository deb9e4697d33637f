import Testing

@testable import AuthProviders

/// Bidi overrides, zero-width and control characters never reach a host inside a display name.
@Suite struct DisplayNameTests {
  @Test(arguments: [
    ("Alice\u{202E}nimda", "Alicenimda"), ("\u{2067}Bob\u{2069}", "Bob"), ("Ad\u{200B}min", "Admin"),
    ("Ad\u{200D}min", "Admin"), ("\u{FEFF}Carol\u{2060}", "Carol"), ("Dave\u{1B}[2J", "Dave[2J"),
    ("so\u{AD}ft", "soft"), ("Eve\u{200E}", "Eve"),
  ])
  func invisibleFormattingIsStripped(raw: String, shown: String) {
    let user = UserInfo(id: "1", username: "u", displayName: raw)
    #expect(user.displayName.map { Array($0.unicodeScalars) } == Array(shown.unicodeScalars))
    #expect(Registration(username: "u", displayName: raw).displayName == shown)
  }

  @Test func emojiSequencesAndOrdinaryScriptsAreKept() {
    for name in ["👩\u{200D}💻 Ada", "名字", "José", "❤\u{FE0F} love", "مرحبا"] {
      #expect(UserInfo(id: "1", username: "u", displayName: name).displayName == name)
    }
  }

  /// Printable ASCII takes a shortcut past the per-character checks; it must agree with them.
  @Test func printableASCIIIsKeptAsItIs() {
    for name in ["Alice Example", "~!@#$%^&*()_+{}|:<>?", " padded "] {
      #expect(UserInfo(id: "1", username: "u", displayName: name).displayName == name)
    }
    #expect(UserInfo(id: "1", username: "u", displayName: "   ").displayName == nil)
    #expect(UserInfo(id: "1", username: "u", displayName: "").displayName == nil)
    // Just outside it: DEL and a tab are control characters, stripped (and a name of only them is no name).
    #expect(UserInfo(id: "1", username: "u", displayName: "Al\u{7F}ice\u{9}").displayName == "Alice")
    #expect(UserInfo(id: "1", username: "u", displayName: "\u{9}").displayName == nil)
  }

  @Test func aNameOfOnlyInvisibleCharactersIsNoName() {
    #expect(UserInfo(id: "1", username: "u", displayName: "\u{200B}\u{3164}\u{202E}").displayName == nil)
    // A user cached before this rule is neutralized when read back.
    let cached = UserInfo(json: ["id": "1", "username": "u", "displayName": "Mallory\u{202E}gpj.exe"])
    #expect(cached?.displayName == "Mallorygpj.exe")
  }
}
