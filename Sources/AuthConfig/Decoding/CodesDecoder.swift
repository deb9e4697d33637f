/// The profile's `codes` object; absent means every default.
enum CodesDecoder {
  static let keys = ["length", "ttlSeconds", "resendCooldownSeconds", "maxPerDay", "requireAfterFailures"]

  static func settings(in profile: ConfigObject) throws(SettingError) -> CodesConfig {
    guard let object = try profile.object("codes", allowedKeys: keys) else { return .defaults }
    typealias C = CodesConfig
    return CodesConfig(
      length: try object.integer("length", in: C.lengthRange) ?? C.defaultLength,
      ttlSeconds: try object.integer("ttlSeconds", in: C.ttlSecondsRange) ?? C.defaultTTLSeconds,
      resendCooldownSeconds: try object.integer("resendCooldownSeconds", in: C.resendCooldownSecondsRange)
        ?? C.defaultResendCooldownSeconds,
      maxPerDay: try object.integer("maxPerDay", in: C.maxPerDayRange) ?? C.defaultMaxPerDay,
      requireAfterFailures: try object.integer("requireAfterFailures", in: C.requireAfterFailuresRange))
  }
}
