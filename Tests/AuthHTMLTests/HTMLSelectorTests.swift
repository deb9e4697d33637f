import AuthHTML
import Testing

@Suite struct HTMLSelectorTests {
  static let profile = try! HTMLDocument(
    parsing: Array(
      """
      <main><dl id="profile"><dt>username</dt><dd class="username extra">alice</dd>
      <dt>email</dt><dd class="email">alice@example.com</dd></dl>
      <aside><dd class="username">not this one</dd></aside></main>
      """.utf8))

  @Test(arguments: [
    "#profile .username", "dl#profile dd.username", "main #profile .extra", "#profile dd.username.extra",
  ])
  func descendantSelectorsFindTheProfileField(_ text: String) throws {
    let selector = try #require(HTMLSelector(text))
    #expect(Self.profile.select(selector).map(\.visibleText) == ["alice"])
  }

  @Test func aBareClassFindsEveryMatchInOrder() throws {
    #expect(Self.profile.select(HTMLSelector(".username")!).map(\.visibleText) == ["alice", "not this one"])
    #expect(Self.profile.select(HTMLSelector("DD")!).count == 3)
  }

  @Test(arguments: ["", " ", "#", ".", "a..b", "#a#b", "a > b", "[name=x]", "a:first-child", "a,b", "#ä"])
  func anythingOutsideTheTinyGrammarIsRefused(_ text: String) throws {
    #expect(HTMLSelector(text) == nil)
  }

  @Test func descriptionIsTheNormalizedSelector() throws {
    #expect(HTMLSelector("  #profile   .username ")?.description == "#profile .username")
  }
}
