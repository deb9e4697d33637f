import AuthHTML
import AuthHTTP
import AuthJSON

/// The `form` provider's settings object (see `FormProviderConfig`), which is required: there is no login page
/// to default to.
///
/// Strict like the rest of the file: unknown keys, wrong types, empty names, selectors outside the tiny grammar,
/// and URLs that are not `https://` (or `http://` to a loopback host) or that leave `loginURL`'s origin are
/// errors naming the key, never the value.
enum FormProviderDecoder {
  static let keys = [
    "loginURL", "form", "fields", "success", "user", "logout", SessionLifetime.key, "timeoutSeconds",
  ]
  static let formKeys = ["id", "index"]
  static let fieldKeys = ["account", "password"]
  static let successKeys = ["sessionCookie", "redirectPath"]
  static let userKeys = ["url", "format", "fields"]
  static let logoutKeys = ["url", "method", "csrf"]
  static let csrfKeys = ["formURL", "formId", "cookie", "header"]
  static let urlRule = ConfigObject.urlRule

  static func settings(in profile: ConfigObject) throws(SettingError) -> FormProviderConfig {
    let key = ProviderKind.form.rawValue
    guard let object = try profile.object(key, allowedKeys: keys) else {
      throw SettingError(profile.path.appending(key), "is required for provider \"form\": at least loginURL and user")
    }
    guard let login = try url("loginURL", in: object, origin: nil) else {
      throw SettingError(object.path.appending("loginURL"), "is required: the page with the login form")
    }
    let origin = login.origin
    let fields = try object.object("fields", allowedKeys: fieldKeys)
    let timeout = try object.integer("timeoutSeconds", in: FormProviderConfig.timeoutSecondsRange)
    return FormProviderConfig(
      loginURL: login.url,
      form: try formChoice(object),
      accountField: try fields.map { f throws(SettingError) in try name("account", in: f) } ?? nil,
      passwordField: try fields.map { f throws(SettingError) in try name("password", in: f) } ?? nil,
      success: try success(object),
      user: try user(object, origin: origin),
      logout: try logout(object, origin: origin),
      sessionLifetimeSeconds: try object.sessionLifetimeSeconds(),
      timeoutSeconds: timeout ?? FormProviderConfig.defaultTimeoutSeconds)
  }

  // MARK: - Parts

  private static func formChoice(_ object: ConfigObject) throws(SettingError) -> FormProviderConfig.FormChoice {
    guard let form = try object.object("form", allowedKeys: formKeys) else { return .withPassword }
    let id = try name("id", in: form)
    let index = try form.integer("index", in: 0...99)
    switch (id, index) {
    case (let id?, nil): return .id(id)
    case (nil, let index?): return .index(index)
    case (_?, _?): throw SettingError(form.path, "give id or index, not both")
    case (nil, nil):
      throw SettingError(form.path, "give id or index; leave form out for the first form with a password")
    }
  }

  private static func success(_ object: ConfigObject) throws(SettingError) -> FormProviderConfig.SuccessRules {
    guard let success = try object.object("success", allowedKeys: successKeys) else { return .init() }
    let cookie = try name("sessionCookie", in: success)
    if let cookie, !HTTPToken.isValid(cookie) {
      throw SettingError(success.path.appending("sessionCookie"), "must be a cookie name (an HTTP token)")
    }
    var redirectPath: String?
    if let path = try success.string("redirectPath") {
      guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#"),
        path.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
      else {
        throw SettingError(
          success.path.appending("redirectPath"), "must be a path starting with /, without query or fragment")
      }
      redirectPath = path
    }
    return FormProviderConfig.SuccessRules(sessionCookie: cookie, redirectPath: redirectPath)
  }

  private static func user(_ object: ConfigObject, origin: RequestTarget.Origin) throws(SettingError)
    -> FormProviderConfig.UserSource
  {
    guard let user = try object.object("user", allowedKeys: userKeys) else {
      throw SettingError(
        object.path.appending("user"),
        "is required: the page (url, format json or html) that shows the logged-in user; refreshes re-check it")
    }
    guard let url = try url("url", in: user, origin: origin)?.url else {
      throw SettingError(user.path.appending("url"), "is required: the page that shows the logged-in user")
    }
    let format = try user.string("format") ?? "json"
    switch format {
    case "json":
      return .init(url: url, fields: .json(try RESTProviderDecoder.userFields(user, key: "fields")))
    case "html":
      return .init(url: url, fields: .html(try htmlFields(user)))
    default:
      throw SettingError(user.path.appending("format"), #"must be "json" or "html""#)
    }
  }

  private static func htmlFields(_ user: ConfigObject) throws(SettingError) -> FormProviderConfig.HTMLUserFields {
    guard let fields = try user.object("fields", allowedKeys: RESTProviderDecoder.userFieldKeys) else {
      throw SettingError(
        user.path.appending("fields"),
        "is required for an html user page: a selector per field, like #profile .username")
    }
    func selector(_ key: String) throws(SettingError) -> HTMLSelector? {
      guard let text = try fields.string(key) else { return nil }
      guard let selector = HTMLSelector(text) else {
        throw SettingError(
          fields.path.appending(key),
          "must be a selector of tag, #id and .class parts joined by spaces, like #profile dd.username")
      }
      return selector
    }
    let result = FormProviderConfig.HTMLUserFields(
      id: try selector("id"), username: try selector("username"), email: try selector("email"),
      phone: try selector("phone"), displayName: try selector("displayName"))
    guard result.id != nil || result.username != nil else {
      throw SettingError(fields.path, "needs at least id or username")
    }
    return result
  }

  private static func logout(_ object: ConfigObject, origin: RequestTarget.Origin) throws(SettingError)
    -> FormProviderConfig.Logout?
  {
    guard let logout = try object.object("logout", allowedKeys: logoutKeys) else { return nil }
    guard let url = try url("url", in: logout, origin: origin)?.url else {
      throw SettingError(logout.path.appending("url"), "is required: where the site logs out")
    }
    let method = try logout.method("method", of: [.get, .post], rule: "must be GET or POST (upper case)") ?? .post
    guard let csrf = try logout.object("csrf", allowedKeys: csrfKeys) else {
      return FormProviderConfig.Logout(url: url, method: method)
    }
    let formURL = try Self.url("formURL", in: csrf, origin: origin)?.url
    let formID = try name("formId", in: csrf)
    let cookie = try name("cookie", in: csrf)
    let header = try name("header", in: csrf)
    let choice: FormProviderConfig.CSRF
    switch (formURL, cookie, header) {
    case (let formURL?, nil, nil):
      choice = .form(url: formURL, formID: formID)
    case (nil, let cookie?, let header?) where formID == nil:
      guard HTTPToken.isValid(header), !RESTProviderDecoder.reservedHeaders.contains(header.lowercased())
      else {
        throw SettingError(csrf.path.appending("header"), "must be a header name the sidecar does not set itself")
      }
      choice = .cookieHeader(cookie: cookie, header: header)
    default:
      throw SettingError(
        csrf.path, "give formURL (and formId) to send a page's hidden inputs, or cookie and header to echo a cookie")
    }
    return FormProviderConfig.Logout(url: url, method: method, csrf: choice)
  }

  // MARK: - Values

  /// A non-empty name without control characters or spaces (a field, form id, cookie or header name).
  private static func name(_ key: String, in object: ConfigObject) throws(SettingError) -> String? {
    guard let text = try object.string(key) else { return nil }
    guard !text.isEmpty, text.utf8.count <= 256, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
    else {
      throw SettingError(object.path.appending(key), "must be a non-empty name without spaces or control characters")
    }
    return text
  }

  /// An acceptable absolute URL (`ConfigObject.url`); when `origin` is given, on that origin.
  private static func url(_ key: String, in object: ConfigObject, origin: RequestTarget.Origin?) throws(SettingError)
    -> RequestTarget?
  {
    guard let target = try object.url(key, allowQuery: true) else { return nil }
    if let origin, target.origin != origin {
      throw SettingError(
        object.path.appending(key), "must be on loginURL's origin (scheme, host and port): cookies stay with one site")
    }
    return target
  }
}
