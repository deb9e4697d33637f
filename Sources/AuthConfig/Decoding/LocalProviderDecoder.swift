/// The `local` provider's settings object; absent means every default.
enum LocalProviderDecoder {
  static let keys = ["accessTokenTTLSeconds", "refreshTokenTTLDays", "codeDelivery"]

  static func settings(in profile: ConfigObject) throws(SettingError) -> LocalProviderConfig {
    guard let object = try profile.object(ProviderKind.local.rawValue, allowedKeys: keys) else { return .defaults }
    let accessTTL = try object.integer("accessTokenTTLSeconds", in: LocalProviderConfig.accessTokenTTLSecondsRange)
    let refreshTTL = try object.integer("refreshTokenTTLDays", in: LocalProviderConfig.refreshTokenTTLDaysRange)
    return LocalProviderConfig(
      accessTokenTTLSeconds: accessTTL ?? LocalProviderConfig.defaultAccessTokenTTLSeconds,
      refreshTokenTTLDays: refreshTTL ?? LocalProviderConfig.defaultRefreshTokenTTLDays,
      codeDeliveryCommand: try command(in: object)
    )
  }

  /// `"codeDelivery": {"command": ["/usr/local/bin/send-code", "--gateway", "x"]}`: an argv array, never a shell
  /// line, so nothing in it is ever re-parsed. The code itself never goes into it: it travels on stdin.
  private static func command(in local: ConfigObject) throws(SettingError) -> [String]? {
    guard let delivery = try local.object("codeDelivery", allowedKeys: ["command"]) else { return nil }
    let path = delivery.path.appending("command")
    guard case .array(let items)? = delivery.value("command") else {
      throw SettingError(path, "is required: an array of strings, the program first")
    }
    var argv: [String] = []
    for item in items {
      guard case .string(let text) = item, !text.isEmpty, !text.utf8.contains(0) else {
        throw SettingError(path, "must hold non-empty strings only")
      }
      argv.append(text)
    }
    guard let program = argv.first else { throw SettingError(path, "must name a program") }
    guard program.hasPrefix("/") else { throw SettingError(path, "the program must be an absolute path") }
    return argv
  }
}
