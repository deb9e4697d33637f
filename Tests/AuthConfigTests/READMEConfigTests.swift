import Foundation
import Testing

@testable import AuthConfig

/// The README's worked configs load as written: a user copies them.
@Suite struct READMEConfigTests {
  /// The flag API: tokenless, with success and unknown-account conditions.
  @Test func theREADMEFlagAPIConfigLoads() throws {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let flag = try #require(blocks.first { $0.contains("loginOKOrNotFlag") }, "no flag API config in the README")
    let config = try ConfigFixtures.parse(flag)
    guard case .rest(let rest)? = config.profile("default")?.provider else {
      Issue.record("the README's flag API profile is not a rest profile")
      return
    }
    #expect(rest.isTokenless)
    #expect(rest.response.unknownAccount != nil)
  }
}
