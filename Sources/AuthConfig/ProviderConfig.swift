import AuthValidation

/// The provider a profile logs in with, holding that provider's own settings.
///
/// Each provider is a case with its own settings type, read from the profile key named after the provider
/// (`"local": {...}`, later `"rest": {...}`). Adding one means a case here, its settings type, its decoder in
/// `ProfileDecoder.provider(_:)`, and a `ProviderKind` case; the exhaustive switches show every other place that
/// must decide what the new provider does.
package enum ProviderConfig: Sendable, Equatable {
  case local(LocalProviderConfig)
  case rest(RESTProviderConfig)
  case oauth2(OAuth2ProviderConfig)
  case form(FormProviderConfig)
  /// A made-up server for hosts' tests and demos; never for production.
  case simulated(SimulatedProviderConfig)

  package var kind: ProviderKind {
    switch self {
    case .local: .local
    case .rest: .rest
    case .oauth2: .oauth2
    case .form: .form
    case .simulated: .simulated
    }
  }

  /// The `login` flows a profile accepts, for hosts deciding which sign-in to offer: `password` for every
  /// provider but an `oauth2` profile without `allowPasswordGrant`, then that profile's interactive `flows`; the
  /// `simulated` provider imitates a device flow too.
  package var loginFlows: [LoginFlow] {
    switch self {
    case .local, .rest, .form: [.password]
    case .simulated: [.password, .device]
    case .oauth2(let oauth2): (oauth2.allowPasswordGrant ? [.password] : []) + oauth2.flows
    }
  }

  /// The names a host may send in `login {context: {…}}`: a `rest` profile's `context` list; none elsewhere.
  package var loginContextNames: [String] {
    if case .rest(let rest) = self { rest.loginRequest.contextNames } else { [] }
  }

  /// The one kind of account a password login can send (see `RESTProviderConfig.loginAccountKind`).
  package var loginAccountKind: AccountKind? {
    if case .rest(let rest) = self { rest.loginAccountKind } else { nil }
  }
}

/// Every provider name the config format knows; this build can log in with each of them.
package enum ProviderKind: String, Sendable, CaseIterable, CustomStringConvertible {
  case local
  case rest
  case oauth2
  case form
  case simulated

  /// Whether its logins go over HTTP to a server (and so need libcurl and may use `tls` settings).
  package var isRemote: Bool {
    switch self {
    case .rest, .oauth2, .form: true
    case .local, .simulated: false
    }
  }

  package var description: String { rawValue }
}
