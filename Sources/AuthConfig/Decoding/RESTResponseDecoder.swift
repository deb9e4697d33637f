import AuthJSON

/// The `rest` provider's `response` object: where answers keep their fields, and the `success` and
/// `unknownAccount` rules (see `AnswerRule`).
///
/// Refused here, at start, rather than at the first login: a config that could never tell a refused login from an
/// accepted one (no access token path and no `success` rule, or a rule with no condition), and fields that mean
/// nothing without an access token.
enum RESTResponseDecoder {
  static let keys = [
    "accessToken", "refreshToken", "expiresIn", "user", "tokenType", "success", "unknownAccount",
  ] + RESTCodesDecoder.responseKeys
  static let conditionKeys = ["path", "equals"]
  static let ruleForm = #"a field path (the boolean true), {"path": "…", "equals": <value>}, or an array of them"#

  static func fields(_ object: ConfigObject) throws(SettingError) -> RESTProviderConfig.ResponseFields {
    guard let response = try object.object("response", allowedKeys: keys) else {
      throw SettingError(
        object.path.appending("response"), "is required: at least accessToken (the token's field path) or success")
    }
    let accessToken = try RESTProviderDecoder.fieldPath(response, "accessToken")
    let success = try rule("success", in: response)
    guard accessToken != nil || success != nil else {
      throw SettingError(
        response.path.appending("accessToken"),
        "is required unless success says what an accepted login answers: without either, a refused login "
          + "could not be told from an accepted one")
    }
    if accessToken == nil {
      // A tokenless session has no access token for these to describe; a config naming them expects one.
      for key in ["refreshToken", "tokenType"] where response.contains(key) {
        throw SettingError(response.path.appending(key), "needs accessToken: a tokenless login has no token to refresh")
      }
    }
    return RESTProviderConfig.ResponseFields(
      accessToken: accessToken,
      refreshToken: try RESTProviderDecoder.fieldPath(response, "refreshToken"),
      expiresIn: try RESTProviderDecoder.fieldPath(response, "expiresIn"),
      user: try RESTProviderDecoder.fieldPath(response, "user"),
      tokenType: try RESTProviderDecoder.fieldPath(response, "tokenType"),
      success: success,
      unknownAccount: try rule("unknownAccount", in: response)
    )
  }

  /// A rule in any of its three forms; nil when `key` is absent.
  static func rule(_ key: String, in response: ConfigObject) throws(SettingError) -> AnswerRule? {
    guard let value = response.value(key) else { return nil }
    let path = response.path.appending(key)
    guard case .array(let elements) = value else { return AnswerRule([try condition(value, at: path)]) }
    guard !elements.isEmpty else {
      throw SettingError(path, "has no condition, so it could never be false; give at least one: \(ruleForm)")
    }
    var conditions: [AnswerRule.Condition] = []
    for (index, element) in elements.enumerated() {
      conditions.append(try condition(element, at: path.appending(String(index))))
    }
    return AnswerRule(conditions)
  }

  /// `"path"` (the field must be the boolean true) or `{"path": "…", "equals": <any JSON value>}`.
  static func condition(_ value: JSONValue, at path: JSONPath) throws(SettingError) -> AnswerRule.Condition {
    if case .string(let text) = value { return AnswerRule.Condition(try fieldPath(text, at: path)) }
    guard case .object = value else {
      throw SettingError(path, "must be \(ruleForm), not \(ConfigObject.describe(value))")
    }
    let object = try ConfigObject(value, at: path, allowedKeys: conditionKeys)
    guard let text = try object.string("path") else {
      throw SettingError(path.appending("path"), "is required: the field the condition reads")
    }
    guard let expected = object.value("equals") else {
      throw SettingError(path.appending("equals"), "is required: the value the field must equal (any JSON value)")
    }
    return AnswerRule.Condition(try fieldPath(text, at: path.appending("path")), equals: expected)
  }

  static func fieldPath(_ text: String, at path: JSONPath) throws(SettingError) -> RESTProviderConfig.FieldPath {
    guard let parsed = RESTProviderConfig.FieldPath(parsing: text) else {
      throw SettingError(path, RESTProviderDecoder.fieldPathRule)
    }
    return parsed
  }
}
