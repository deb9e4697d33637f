/// The `simulated` provider's settings object; absent means every default.
enum SimulatedProviderDecoder {
  static let keys = ["timeoutSeconds"]

  static func settings(in profile: ConfigObject) throws(SettingError) -> SimulatedProviderConfig {
    guard let object = try profile.object(ProviderKind.simulated.rawValue, allowedKeys: keys) else {
      return .defaults
    }
    let timeout = try object.integer("timeoutSeconds", in: SimulatedProviderConfig.timeoutSecondsRange)
    return SimulatedProviderConfig(timeoutSeconds: timeout ?? SimulatedProviderConfig.defaultTimeoutSeconds)
  }
}
