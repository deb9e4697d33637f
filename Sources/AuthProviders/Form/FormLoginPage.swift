import AuthConfig
import AuthHTML
import AuthHTTP

/// The login page as fetched: which form is the login form, where it posts, and what it sends.
///
/// Every refusal here happens before the password is sent anywhere: a page without the form, a form that would
/// put the password in a URL (`method="get"`), or one whose `action` is on another origin (`badResponse`).
struct FormLoginPage {
  let form: HTMLForm
  /// The absolute URL the form posts to, on the login page's origin.
  let action: String
  /// The `name`s of the inputs the account and the password go in.
  let accountField: String
  let passwordField: String

  /// - Parameter pageURL: the URL that served `document`, against which `action` is resolved.
  /// - Throws: `ProviderError.badResponse`.
  init(_ document: HTMLDocument, pageURL: String, config: FormProviderConfig, origin: RequestTarget.Origin) throws {
    guard let form = Self.choose(document.forms, config.form) else {
      throw ProviderError(.badResponse, "the login page has no login form (\(config.form))")
    }
    guard form.method == "post" else {
      throw ProviderError(.badResponse, "the login form does not POST; a password is never put in a URL")
    }
    let page = try FormBrowser.target(pageURL)
    let target: RequestTarget
    do {
      target = try (form.action ?? "").isEmpty ? page : page.resolving(form.action!)
    } catch {
      throw ProviderError(.badResponse, "the login form's action is not a usable URL")
    }
    guard target.origin == origin else {
      throw ProviderError(
        .badResponse, "the login form posts to another origin (\(target.origin.host)); nothing was sent there")
    }
    let password = config.passwordField ?? form.controls.first { $0.type == "password" && !$0.name.isEmpty }?.name
    let account = config.accountField ?? form.controls.first { $0.isTextEntry && !$0.name.isEmpty }?.name
    guard let password, let account else {
      throw ProviderError(.badResponse, "the login form has no named account or password input")
    }
    self.form = form
    action = target.url
    accountField = account
    passwordField = password
  }

  static func choose(_ forms: [HTMLForm], _ choice: FormProviderConfig.FormChoice) -> HTMLForm? {
    switch choice {
    case .withPassword: forms.first { $0.hasPasswordInput }
    case .id(let id): forms.first { $0.id == id }
    case .index(let index): forms.indices.contains(index) ? forms[index] : nil
    }
  }

  /// The `application/x-www-form-urlencoded` body: every entry the form would submit (hidden inputs, CSRF token
  /// and `next` among them) in its order, with the account and password put in their fields (added at the end
  /// when the page has no such input and the config named one).
  func body(account: String, password: String) -> [UInt8] {
    var entries = form.entries
    var filled = (account: false, password: false)
    for index in entries.indices {
      if entries[index].name == accountField, !filled.account {
        entries[index].value = account
        filled.account = true
      } else if entries[index].name == passwordField, !filled.password {
        entries[index].value = password
        filled.password = true
      }
    }
    if !filled.account { entries.append((accountField, account)) }
    if !filled.password { entries.append((passwordField, password)) }
    return FormBody(entries.map { ($0.name, .text($0.value)) }).bytes
  }
}
