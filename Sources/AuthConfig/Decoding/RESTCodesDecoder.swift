import AuthJSON

/// The `rest` provider's code flows: the `sendCode`, `loginWithCode`, `verify` and `resetPassword` endpoints (read
/// by `RESTProviderDecoder.endpoint` like `login`, templates and all), `sendCode.purposes`, and the `response` keys
/// that read their answers. A step-up the sidecar could detect but never complete, or the reverse, is refused here
/// at start rather than failing at a user's login.
enum RESTCodesDecoder {
  typealias Placeholder = RESTProviderConfig.Placeholder
  typealias Role = RESTProviderDecoder.Role

  static let endpointKeys = ["sendCode", "loginWithCode", "verify", "resetPassword"]
  static let responseKeys = [
    "verificationRequired", "challenge", "verificationMethods", "challengeExpiresIn", "sentTo", "tooSoon",
    "retryAfter", "resendIn", "codeExpiresIn", "invalidCode", "codeExpired",
  ]
  static let methodNames = ["sms", "email", "totp", "recovery"]
  /// The values that name the account in a code request, as in a login.
  static let accountValues: [Placeholder] = [
    .username, .account, .email, .accountNormalized, .phoneE164, .phoneNational, .emailNormalized, .accountKind,
  ]

  static func placeholders(_ role: Role) -> [Placeholder] {
    switch role {
    case .sendCode: accountValues + [.purpose, .channel, .challenge]
    case .loginWithCode: accountValues + [.code]
    case .verify: [.challenge, .code]
    case .resetPassword: accountValues + [.code, .newPassword]
    case .login, .refresh, .logout, .user, .register: []
    }
  }

  /// What each body must carry for its request to mean anything to the server.
  static func checkBody(_ body: [RESTProviderConfig.BodyField], role: Role, _ endpoint: ConfigObject)
    throws(SettingError)
  {
    let used = Set(body.flatMap(\.template.placeholders))
    var required: [Placeholder] = []
    switch role {
    case .sendCode: required = []
    case .loginWithCode: required = [.code]
    case .verify: required = [.challenge, .code]
    case .resetPassword: required = [.code, .newPassword]
    case .login, .refresh, .logout, .user, .register: return
    }
    for placeholder in required { try RESTProviderDecoder.require(placeholder, in: body, endpoint) }
    let accountNamers = role == .sendCode ? accountValues + [.challenge] : role == .verify ? [] : accountValues
    guard accountNamers.isEmpty || !used.isDisjoint(with: accountNamers) else {
      let names = accountNamers.map { "{\($0.rawValue)}" }.joined(separator: ", ")
      throw SettingError(endpoint.path.appending("body"), "must name the account with one of \(names)")
    }
  }

  static func settings(_ object: ConfigObject) throws(SettingError) -> RESTProviderConfig.Codes {
    let sendCode = try RESTProviderDecoder.endpoint(.sendCode, in: object)
    let loginWithCode = try RESTProviderDecoder.endpoint(.loginWithCode, in: object)
    let verify = try RESTProviderDecoder.endpoint(.verify, in: object)
    let resetPassword = try RESTProviderDecoder.endpoint(.resetPassword, in: object)
    guard let response = try object.object("response", allowedKeys: nil) else { return .none }
    let answers = try self.answers(response)
    if answers.verificationRequired != nil, verify == nil {
      throw SettingError(
        object.path.appending("verify"), "is required with response.verificationRequired: the step-up's second step")
    }
    if verify != nil, answers.verificationRequired == nil {
      throw SettingError(
        response.path.appending("verificationRequired"),
        "is required with verify: the condition on a login answer that demands a code")
    }
    if answers.verificationRequired != nil, answers.challenge == nil {
      throw SettingError(response.path.appending("challenge"), "is required with verificationRequired: its field path")
    }
    var purposes: [String: String] = [:]
    if loginWithCode != nil { purposes["login"] = "login" }
    if resetPassword != nil { purposes["resetPassword"] = "resetPassword" }
    let sendCodeObject = try object.object("sendCode", allowedKeys: nil)
    if let named = try sendCodeObject?.object("purposes", allowedKeys: Codes.purposeNames) {
      purposes = try self.purposes(named)
    }
    return RESTProviderConfig.Codes(
      sendCode: sendCode, purposes: purposes, loginWithCode: loginWithCode, verify: verify,
      resetPassword: resetPassword, answers: answers)
  }

  private typealias Codes = RESTProviderConfig.Codes

  /// `{"login": "login", "resetPassword": "reset"}`: each purpose offered, with the name the API knows it by.
  static func purposes(_ object: ConfigObject) throws(SettingError) -> [String: String] {
    var purposes: [String: String] = [:]
    for member in object.members {
      guard case .string(let name) = member.value, !name.isEmpty else {
        throw SettingError(object.path.appending(member.key), "must be the purpose's name at the API, a string")
      }
      purposes[member.key] = name
    }
    return purposes
  }

  static func answers(_ response: ConfigObject) throws(SettingError) -> RESTProviderConfig.CodeAnswers {
    func path(_ key: String) throws(SettingError) -> RESTProviderConfig.FieldPath? {
      try RESTProviderDecoder.fieldPath(response, key)
    }
    return RESTProviderConfig.CodeAnswers(
      verificationRequired: try rule("verificationRequired", in: response), challenge: try path("challenge"),
      verificationMethods: try methods(response), challengeExpiresIn: try path("challengeExpiresIn"),
      sentTo: try path("sentTo"), tooSoon: try rule("tooSoon", in: response), retryAfter: try path("retryAfter"),
      resendIn: try path("resendIn"), codeExpiresIn: try path("codeExpiresIn"),
      invalidCode: try rule("invalidCode", in: response), codeExpired: try rule("codeExpired", in: response))
  }

  /// A field path (an array of names in the answer) or a fixed list of names.
  static func methods(_ response: ConfigObject) throws(SettingError) -> RESTProviderConfig.VerificationMethods {
    let key = "verificationMethods"
    guard let value = response.value(key) else { return .byAccountKind }
    let at = response.path.appending(key)
    if case .string(let text) = value { return .path(try RESTResponseDecoder.fieldPath(text, at: at)) }
    guard case .array(let elements) = value, !elements.isEmpty else {
      throw SettingError(at, "must be a field path or a non-empty array of \(methodNames.joined(separator: ", "))")
    }
    var names: [String] = []
    for (index, element) in elements.enumerated() {
      guard case .string(let name) = element, methodNames.contains(name) else {
        throw SettingError(at.appending(String(index)), "must be one of \(methodNames.joined(separator: ", "))")
      }
      names.append(name)
    }
    return .list(names)
  }

  /// The same three forms as a login's `success` rule, so one config language describes every answer.
  static func rule(_ key: String, in response: ConfigObject) throws(SettingError) -> AnswerRule? {
    try RESTResponseDecoder.rule(key, in: response)
  }
}
