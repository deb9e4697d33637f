import AuthHTTP
import AuthValidation

/// One profile: which provider it logs in with and the rules around that login.
package struct ProfileConfig: Sendable {
  package static let rememberAccountDaysRange = 0...365
  package static let defaultRememberAccountDays = 7
  package static let refreshMarginSecondsRange = 0...3600
  package static let defaultRefreshMarginSeconds = 60

  package let name: String
  package let provider: ProviderConfig
  package let validation: ValidationPolicy
  /// Days a logged-out profile still offers its last account to pre-fill a login form; 0 turns that off.
  package let rememberAccountDays: Int
  /// How long before the access token expires a refresh is due.
  package let refreshMarginSeconds: Int
  /// What a remote provider's TLS connections trust beyond (or instead of) the system store.
  package let tls: TLSSettings
  /// One-time code rules: length, lifetime, resend cooldown, daily cap, step-up after failures.
  package let codes: CodesConfig

  /// - Important: `name` must pass the `ProfileName` rule and the numbers must lie in their ranges; the loader
  ///   checks all of them for files, so only code can break these preconditions.
  package init(
    name: String,
    provider: ProviderConfig = .local(.defaults),
    validation: ValidationPolicy = .standard,
    rememberAccountDays: Int = defaultRememberAccountDays,
    refreshMarginSeconds: Int = defaultRefreshMarginSeconds,
    tls: TLSSettings = TLSSettings(),
    codes: CodesConfig = .defaults
  ) {
    precondition(ProfileName(name) != nil, "profile names are 1-64 characters of [A-Za-z0-9_.-]")
    precondition(Self.rememberAccountDaysRange.contains(rememberAccountDays), "rememberAccountDays out of range")
    precondition(Self.refreshMarginSecondsRange.contains(refreshMarginSeconds), "refreshMarginSeconds out of range")
    self.name = name
    self.provider = provider
    self.validation = validation
    self.rememberAccountDays = rememberAccountDays
    self.refreshMarginSeconds = refreshMarginSeconds
    self.tls = tls
    self.codes = codes
  }
}
