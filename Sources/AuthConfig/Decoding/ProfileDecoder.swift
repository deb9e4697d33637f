import AuthJSON

/// One profile: `{"provider": "local", "validation": {...}, "rememberAccountDays": 7, ..., "local": {...}}`.
enum ProfileDecoder {
  /// The keys every profile may have, whatever its provider.
  static let commonKeys = ["provider", "validation", "rememberAccountDays", "refreshMarginSeconds", "tls", "codes"]
  /// Plus one settings object per provider, keyed by the provider's name.
  static let keys = commonKeys + ProviderKind.allCases.map(\.rawValue)

  static func profile(named name: String, from value: JSONValue, at path: JSONPath) throws(SettingError)
    -> ProfileConfig
  {
    let object = try ConfigObject(value, at: path, allowedKeys: keys)
    let provider = try provider(object)
    let validation = try ValidationDecoder.policy(from: object)
    let rememberAccountDays = try object.integer("rememberAccountDays", in: ProfileConfig.rememberAccountDaysRange)
    let refreshMarginSeconds = try object.integer("refreshMarginSeconds", in: ProfileConfig.refreshMarginSecondsRange)
    return ProfileConfig(
      name: name,
      provider: provider,
      validation: validation,
      rememberAccountDays: rememberAccountDays ?? ProfileConfig.defaultRememberAccountDays,
      refreshMarginSeconds: refreshMarginSeconds ?? ProfileConfig.defaultRefreshMarginSeconds,
      tls: try TLSDecoder.settings(in: object, provider: provider.kind),
      codes: try CodesDecoder.settings(in: object)
    )
  }

  /// The provider and its settings object. `provider` is required: which server a profile logs in to is not
  /// something to guess, least of all once remote providers exist.
  static func provider(_ object: ConfigObject) throws(SettingError) -> ProviderConfig {
    let path = object.path.appending("provider")
    let available = ProviderKind.allCases.map { "\"\($0)\"" }.joined(separator: ", ")
    guard let name = try object.string("provider") else {
      throw SettingError(path, "is required; this build supports \(available)")
    }
    guard let kind = ProviderKind(rawValue: name) else {
      throw SettingError(path, "unknown provider; this build supports \(available)")
    }
    let provider: ProviderConfig
    switch kind {
    case .local:
      provider = .local(try LocalProviderDecoder.settings(in: object))
    case .rest:
      provider = .rest(try RESTProviderDecoder.settings(in: object))
    case .oauth2:
      provider = .oauth2(try OAuth2ProviderDecoder.settings(in: object))
    case .form:
      provider = .form(try FormProviderDecoder.settings(in: object))
    case .simulated:
      provider = .simulated(try SimulatedProviderDecoder.settings(in: object))
    }
    // A settings object for another provider is most likely a provider switched without moving its settings.
    for other in ProviderKind.allCases where other != kind && object.contains(other.rawValue) {
      throw SettingError(
        object.path.appending(other.rawValue), "settings for provider \"\(other)\", but this profile uses \"\(kind)\"")
    }
    return provider
  }
}
