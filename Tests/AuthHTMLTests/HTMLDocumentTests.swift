import AuthHTML
import Testing

@Suite struct HTMLDocumentTests {
  static func parse(_ html: String, charset: String? = nil) -> HTMLDocument {
    try! HTMLDocument(parsing: Array(html.utf8), charset: charset)
  }

  @Test func entitiesAreDecodedInTextAndAttributes() throws {
    let document = Self.parse(
      #"<p id="a" title="Tom &amp; Jerry &#20013;">caf&eacute; &lt;b&gt; &#x4E2D;&#25991;</p>"#)
    let paragraph = try! #require(document.element(id: "a"))
    #expect(paragraph.attribute("title") == "Tom & Jerry 中")
    #expect(paragraph.textContent == "café <b> 中文")
  }

  @Test func undeclaredUTF8StaysUTF8() throws {
    let document = Self.parse("<dd class=username>名字用户</dd>")
    #expect(document.elements.first { $0.name == "dd" }?.textContent == "名字用户")
  }

  @Test func aDeclaredCharsetIsHonoured() throws {
    // "é" in ISO-8859-1 is the single byte E9, invalid as UTF-8.
    let bytes = Array("<p id=x>caf".utf8) + [0xE9] + Array("</p>".utf8)
    let document = try HTMLDocument(parsing: bytes, charset: "ISO-8859-1")
    #expect(document.element(id: "x")?.textContent == "café")
  }

  @Test func tagSoupIsRecoveredLikeABrowserWould() throws {
    let document = Self.parse(
      """
      <html><body><div><p>unclosed <b>bold <i>both</b> text</div></span>
      <form id=f action=/x method=POST><input name=a value=1><input name=b value="2"
      </form>
      """)
    let form = try! #require(document.forms.first)
    #expect(form.id == "f")
    #expect(form.method == "post")
    #expect(form.entries.map(\.name).contains("a"))
  }

  @Test func emptyAndBinaryInputGiveAnEmptyOrHarmlessDocument() throws {
    #expect(try HTMLDocument(parsing: []).nodes.isEmpty)
    let noise = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
    let document = try HTMLDocument(parsing: noise)
    #expect(document.forms.isEmpty)
  }

  @Test func aVeryDeepDocumentDoesNotOverflowTheStack() throws {
    let depth = 100_000
    let html = String(repeating: "<div>", count: depth) + "<span id=deep>x</span>"
    let document = Self.parse(html)
    // libxml2 caps nesting on its own (and drops what lies deeper); what matters is that parsing, walking and
    // text all return.
    #expect(document.elements.count > 100)
    #expect(document.elements[0].descendants.count == document.elements.count - 1)
    _ = document.elements[0].textContent
    _ = document.select(HTMLSelector("div span")!)
  }

  @Test func aLargeDocumentIsReadWhole() throws {
    let inputs = (0..<20_000).map { #"<input type="hidden" name="f\#($0)" value="v\#($0)">"# }.joined()
    let document = Self.parse("<form id=big>" + inputs + "</form>")
    let form = try! #require(document.forms.first)
    #expect(form.entries.count == 20_000)
    #expect(form.entries.last?.value == "v19999")
  }

  @Test func commentsAndScriptsAreNotControls() throws {
    let document = Self.parse(
      #"<form><!-- <input name=ghost value=1> --><script>var s = "<input name=js>";</script><input name=real></form>"#)
    #expect(document.forms.first?.entries.map(\.name) == ["real"])
  }
}
