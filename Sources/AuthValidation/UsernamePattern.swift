/// A policy's custom username regular expression, compiled once when the policy is built.
///
/// `Regex` is not `Sendable`, so this box is `@unchecked Sendable`. That is sound because the box is
/// immutable and `init` matches once before the box can be shared: `Regex` lowers its program lazily on
/// the first match and stores it atomically, so afterwards every match only reads it.
final class UsernamePattern: @unchecked Sendable {
  /// The pattern as configured, for diagnostics and equality.
  let source: String
  private let regex: Regex<AnyRegexOutput>

  /// - Throws: `ValidationPolicyError` when the pattern does not compile.
  init(_ source: String) throws(ValidationPolicyError) {
    do {
      regex = try Regex(source)
    } catch {
      throw ValidationPolicyError(setting: "usernamePattern", reason: .invalidPattern(String(describing: error)))
    }
    self.source = source
    _ = matches("")
  }

  /// Whether the whole of `username` matches.
  func matches(_ username: Substring) -> Bool {
    // Matching throws only for cancellation or custom components, neither of which a parsed pattern has.
    (try? regex.wholeMatch(in: username)) != nil
  }
}
