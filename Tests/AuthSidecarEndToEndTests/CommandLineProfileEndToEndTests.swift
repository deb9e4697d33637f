import Foundation
import Testing

/// `auth-sidecar call … --profile P` and `users … --profile P` work on profile P, never silently on `default`.
@Suite struct CommandLineProfileEndToEndTests {
  static let config = #"""
    {"profiles": {
      "default": {"provider": "local"},
      "strict": {"provider": "local", "validation": {"emailUnicode": false, "usernamePattern": "^[a-z]+$"}},
      "remote": {"provider": "rest", "rest": {"baseURL": "http://127.0.0.1:9",
                 "login": {"path": "/l", "body": {"u": "{account}", "p": "{password}"}},
                 "response": {"accessToken": "t"}}}
    }}
    """#

  static func run(_ fixture: StateFixture, _ arguments: [String], stdin: String = "") throws -> SidecarProcess.Output {
    let path = fixture.root + "/config.json"
    try Data(config.utf8).write(to: URL(fileURLWithPath: path))
    return try SidecarProcess.run(
      ["--config", path] + arguments, input: Data(stdin.utf8), environment: fixture.environment)
  }

  @Test func callValidateUsesTheNamedProfilesRules() throws {
    let fixture = try StateFixture("cli-profile-validate")
    defer { fixture.remove() }
    let params = #"{"email": "张伟@example.com"}"#
    let lenient = try Self.run(fixture, ["call", "validate", params])
    #expect(lenient.status == 0)
    #expect(lenient.lines.first?.contains(#""valid":true"#) == true, "\(lenient.lines)")
    let strict = try Self.run(fixture, ["call", "validate", params, "--profile", "strict"])
    #expect(strict.status == 0)
    #expect(strict.lines.first?.contains("invalid_format") == true, "\(strict.lines)")
    let status = try Self.run(fixture, ["call", "getUser", "--profile", "strict"])
    #expect(status.status == 2)
    #expect(status.lines.first?.contains("not_logged_in") == true)
    let unknown = try Self.run(fixture, ["call", "getUser", "--profile", "nope"])
    #expect(unknown.lines.first?.contains(#""profile":"nope""#) == true, "\(unknown.lines)")
    // Two different profiles for one request is a usage error, not a guess.
    let both = try Self.run(fixture, ["call", "getUser", #"{"profile": "default"}"#, "--profile", "strict"])
    #expect(both.status == 64)
  }

  @Test func usersWorksOnTheNamedLocalProfileOnly() throws {
    let fixture = try StateFixture("cli-profile-users")
    defer { fixture.remove() }
    // strict's usernamePattern refuses what default takes.
    let refused = try Self.run(fixture, ["users", "add", "Bob_1", "--profile", "strict"], stdin: "correct horse 1\n")
    #expect(refused.status == 1)
    #expect(String(decoding: refused.stderr, as: UTF8.self).contains("username"))
    let added = try Self.run(fixture, ["users", "add", "Bob_1"], stdin: "correct horse 1\n")
    #expect(added.status == 0, "\(String(decoding: added.stderr, as: UTF8.self))")
    let remote = try Self.run(fixture, ["users", "list", "--profile", "remote"])
    #expect(remote.status == 1)
    #expect(String(decoding: remote.stderr, as: UTF8.self).contains("local accounts only"))
    let missing = try Self.run(fixture, ["users", "list", "--profile", "nope"])
    #expect(missing.status == 1)
  }
}
