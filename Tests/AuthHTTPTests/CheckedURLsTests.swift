import Testing

@testable import AuthHTTP

@Suite struct CheckedURLsTests {
  @Test func aURLWithoutQueryIsRememberedAndOneWithAQueryOrFragmentIsNot() throws {
    let checked = CheckedURLs()
    let plain = try RequestTarget("https://auth.example.com/api/me/")
    let withCode = try RequestTarget("https://auth.example.com/callback?code=secret")
    let withFragment = try RequestTarget("https://auth.example.com/page#token=secret")
    #expect(!checked.isChecked(plain))
    for target in [plain, withCode, withFragment] { checked.remember(target) }
    #expect(checked.isChecked(plain))
    #expect(checked.target(for: plain.url) == plain)
    #expect(checked.target(for: withCode.url) == nil && !checked.isChecked(withCode))
    #expect(checked.target(for: withFragment.url) == nil && !checked.isChecked(withFragment))
  }

  @Test func nothingPastTheCapacityIsRemembered() throws {
    let checked = CheckedURLs()
    let targets = try (0...CheckedURLs.capacity).map { try RequestTarget("https://host\($0).example.com/") }
    for target in targets { checked.remember(target) }
    #expect(targets.dropLast().allSatisfy(checked.isChecked))
    #expect(!checked.isChecked(try #require(targets.last)))
  }
}
