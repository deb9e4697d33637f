/// The `local` provider's settings object; absent means every default.
enum LocalProviderDecoder {
  static let keys = ["accessTokenTTLSeconds", "refreshTokenTTLDays"]

  static func settings(in profile: ConfigObject) throws(SettingError) -> LocalProviderConfig {
    guard let object = try profile.object(ProviderKind.local.rawValue, allowedKeys: keys) else { return .defaults }
    let accessTTL = try object.integer("accessTokenTTLSeconds", in: LocalProviderConfig.accessTokenTTLSecondsRange)
    let refreshTTL = try object.integer("refreshTokenTTLDays", in: LocalProviderConfig.refreshTokenTTLDaysRange)
    return LocalProviderConfig(
      accessTokenTTLSeconds: accessTTL ?? LocalProviderConfig.defaultAccessTokenTTLSeconds,
      refreshTokenTTLDays: refreshTTL ?? LocalProviderConfig.defaultRefreshTokenTTLDays
    )
  }
}
