import AuthConfig
import AuthValidation

/// The values a `rest` body template takes from the request at hand. Absent values leave their members out.
struct RESTTemplateValues {
  private var values: [RESTProviderConfig.Placeholder: String] = [:]
  private var context: [String: String] = [:]

  init(refreshToken: String? = nil) {
    values[.refreshToken] = refreshToken
  }

  /// At login, the one account field a login form has, and its password.
  static func login(
    _ account: LoginAccount, password: String, request: RESTProviderConfig.LoginRequest
  ) -> RESTTemplateValues {
    var login = naming(account, request: request)
    login.values[.password] = password
    return login
  }

  /// The account of a login or a code request. `{username}`, `{account}` and `{email}` are what the user typed
  /// (trimmed), since servers compare identities as their users typed them at sign-up; the normalized forms have
  /// names of their own. `{email}`, `{emailNormalized}` and the phone forms exist only for that kind.
  static func naming(_ account: LoginAccount, request: RESTProviderConfig.LoginRequest) -> RESTTemplateValues {
    var login = RESTTemplateValues()
    login.values[.username] = account.typed
    login.values[.account] = account.typed
    login.values[.accountNormalized] = account.text
    let kind = AccountKind(rawValue: account.kind.rawValue) ?? .username
    login.values[.accountKind] = request.name(of: kind)
    switch account.kind {
    case .email:
      login.values[.email] = account.typed
      login.values[.emailNormalized] = account.text
    case .phone:
      login.values[.phoneE164] = account.text
      login.values[.phoneNational] = CountryCallingCode.nationalNumber(account.text)
    case .username:
      break
    }
    login.context = account.context
    return login
  }

  static func registration(_ registration: Registration, password: String) -> RESTTemplateValues {
    var values = RESTTemplateValues()
    values.values[.username] = registration.username
    values.values[.account] = registration.username
    values.values[.password] = password
    values.values[.email] = registration.email
    return values
  }

  /// A value by its placeholder; setting nil leaves the member out of the body.
  subscript(_ placeholder: RESTProviderConfig.Placeholder) -> String? {
    get { values[placeholder] }
    set { values[placeholder] = newValue }
  }

  func value(_ placeholder: RESTProviderConfig.Placeholder) -> String? { values[placeholder] }

  /// A `{context.name}` value the host sent with the login; nil when it sent none under that name.
  func context(_ name: String) -> String? { context[name] }
}
