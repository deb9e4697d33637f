import AuthValidation

/// A profile's `validation` object, turned into a ``ValidationPolicy``; absent means the `standard` defaults.
///
/// `ValidationPolicy`'s own init decides which combinations are valid; this only reads the keys and rewords the
/// policy's errors for the config, naming the key at fault and leaving out the values.
enum ValidationDecoder {
  static let keys = [
    "passwordPreset", "passwordMinLength", "passwordMaxLength", "usernameMinLength", "usernameMaxLength",
    "usernamePattern", "emailUnicode",
  ]
  static let lengthRule = "must be an integer of at least 1"

  static func policy(from profile: ConfigObject) throws(SettingError) -> ValidationPolicy {
    guard let object = try profile.object("validation", allowedKeys: keys) else { return .standard }
    let preset = try preset(object)
    let pattern = try object.string("usernamePattern")
    // An empty pattern would match only the empty username, which the rules already reject as `required`:
    // every registration would fail, so it is surely a mistake (leave the key out for the default rule).
    if pattern?.isEmpty == true {
      throw SettingError(object.path.appending("usernamePattern"), "must not be empty; leave it out for the default")
    }
    let passwordMinLength = try object.integer("passwordMinLength", rule: lengthRule)
    let passwordMaxLength = try object.integer("passwordMaxLength", rule: lengthRule)
    let usernameMinLength = try object.integer("usernameMinLength", rule: lengthRule)
    let usernameMaxLength = try object.integer("usernameMaxLength", rule: lengthRule)
    let emailUnicode = try object.bool("emailUnicode") ?? true
    do throws(ValidationPolicyError) {
      return try ValidationPolicy(
        passwordPreset: preset,
        passwordMinLength: passwordMinLength,
        passwordMaxLength: passwordMaxLength,
        usernameMinLength: usernameMinLength,
        usernameMaxLength: usernameMaxLength,
        usernamePattern: pattern,
        emailUnicode: emailUnicode
      )
    } catch {
      throw settingError(for: error, in: object, preset: preset)
    }
  }

  private static func preset(_ object: ConfigObject) throws(SettingError) -> PasswordPreset {
    guard let name = try object.string("passwordPreset") else { return .standard }
    guard let preset = PasswordPreset(rawValue: name) else {
      let names = PasswordPreset.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
      throw SettingError(object.path.appending("passwordPreset"), "must be \(names)")
    }
    return preset
  }

  /// The policy's error, pinned on the key the user wrote. Its own text is not reused: it shows the values, and
  /// a regex compiler's explanation quotes pieces of the pattern.
  static func settingError(for error: ValidationPolicyError, in object: ConfigObject, preset: PasswordPreset)
    -> SettingError
  {
    switch error.reason {
    case .lengthBelowOne:
      return SettingError(object.path.appending(error.setting), lengthRule)
    case .invalidPattern:
      return SettingError(object.path.appending(error.setting), "is not a valid regular expression")
    case .minimumAboveMaximum(let minimum, let maximum):
      return orderError(minimumKey: error.setting, minimum: minimum, maximum: maximum, in: object, preset: preset)
    }
  }

  /// Blames a key the user set: when one bound was left out, the error is about the other one against its default
  /// (a default is ours to print, not the user's value).
  private static func orderError(
    minimumKey: String, minimum: Int, maximum: Int, in object: ConfigObject, preset: PasswordPreset
  ) -> SettingError {
    let maximumKey = minimumKey.replacing("MinLength", with: "MaxLength")
    let defaultOwner = minimumKey.hasPrefix("password") ? " of the \"\(preset.rawValue)\" preset" : ""
    if !object.contains(maximumKey) {
      return SettingError(
        object.path.appending(minimumKey),
        "must not be greater than the default \(maximumKey)\(defaultOwner), \(maximum)")
    }
    if !object.contains(minimumKey) {
      return SettingError(
        object.path.appending(maximumKey),
        "must not be less than the default \(minimumKey)\(defaultOwner), \(minimum)")
    }
    return SettingError(object.path.appending(minimumKey), "must not be greater than \(maximumKey)")
  }
}
