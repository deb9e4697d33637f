import AuthJSON

/// One JSON object of the config, read strictly: the right type, no repeated keys, no keys outside `allowedKeys`.
///
/// Every accessor throws a ``SettingError`` naming the key's path; none of them puts the found value in it.
struct ConfigObject {
  let path: JSONPath
  private let json: JSONObject

  /// - Parameter allowedKeys: the keys this level may hold, in the order the error message lists them;
  ///   nil when the keys are names (profiles) that the caller checks itself.
  init(_ value: JSONValue, at path: JSONPath, allowedKeys: [String]?) throws(SettingError) {
    guard case .object(let object) = value else {
      throw SettingError(path, "must be an object, not \(Self.describe(value))")
    }
    if object.hasDuplicateKeys, let key = Self.firstRepeatedKey(object) {
      throw SettingError(path.appending(key), "appears more than once")
    }
    if let allowedKeys {
      for member in object.members where !allowedKeys.contains(member.key) {
        let expected = allowedKeys.joined(separator: ", ")
        throw SettingError(path.appending(member.key), "unknown key; expected one of \(expected)")
      }
    }
    self.path = path
    json = object
  }

  /// The members in document order.
  var members: [JSONObject.Member] { json.members }

  func contains(_ key: String) -> Bool { json[key] != nil }

  /// The nested object at `key`, or nil when the key is absent.
  func object(_ key: String, allowedKeys: [String]?) throws(SettingError) -> ConfigObject? {
    guard let value = json[key] else { return nil }
    return try ConfigObject(value, at: path.appending(key), allowedKeys: allowedKeys)
  }

  /// The string at `key`, or nil when the key is absent.
  func string(_ key: String) throws(SettingError) -> String? {
    guard let value = json[key] else { return nil }
    guard case .string(let text) = value else {
      throw SettingError(path.appending(key), "must be a string, not \(Self.describe(value))")
    }
    return text
  }

  /// The value at `key` whatever its type, or nil when the key is absent.
  func value(_ key: String) -> JSONValue? { json[key] }

  /// The boolean at `key`, or nil when the key is absent.
  func bool(_ key: String) throws(SettingError) -> Bool? {
    guard let value = json[key] else { return nil }
    guard case .bool(let flag) = value else {
      throw SettingError(path.appending(key), "must be true or false, not \(Self.describe(value))")
    }
    return flag
  }

  /// The integer at `key` within `range`, or nil when the key is absent.
  func integer(_ key: String, in range: ClosedRange<Int>) throws(SettingError) -> Int? {
    let rule = "must be an integer from \(range.lowerBound) to \(range.upperBound)"
    guard let value = try integer(key, rule: rule) else { return nil }
    guard range.contains(value) else { throw SettingError(path.appending(key), rule) }
    return value
  }

  /// The integer at `key`, or nil when the key is absent; `rule` says what is allowed when it is not an integer.
  ///
  /// Only a plain integer lexeme counts: `900.0` or `9e2` are rejected rather than rounded, and a number too big
  /// for 64 bits is out of every range.
  func integer(_ key: String, rule: String) throws(SettingError) -> Int? {
    guard let value = json[key] else { return nil }
    guard case .number(let number) = value else {
      throw SettingError(path.appending(key), "\(rule), not \(Self.describe(value))")
    }
    guard let integer = number.int64Value else { throw SettingError(path.appending(key), rule) }
    return Int(integer)
  }

  /// "a string", "an object", "null": the type of a value, which says what went wrong without showing the value.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .array, .object: "an \(value.typeName)"
    case .bool, .number, .string: "a \(value.typeName)"
    }
  }

  private static func firstRepeatedKey(_ object: JSONObject) -> String? {
    var seen = Set<String>()
    for member in object.members where !seen.insert(member.key).inserted { return member.key }
    return nil
  }
}
