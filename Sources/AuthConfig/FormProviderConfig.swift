import AuthHTML
import AuthHTTP

/// Settings of the `form` provider: a site's own HTML login form, as a browser would use it.
///
/// ```json
/// "form": {
///   "loginURL": "https://example.com/accounts/login/",
///   "form": {"id": "login-form"},
///   "fields": {"account": "username", "password": "password"},
///   "success": {"sessionCookie": "sessionid", "redirectPath": "/accounts/profile/"},
///   "user": {"url": "https://example.com/accounts/profile.json", "format": "json",
///            "fields": {"id": "id", "username": "username", "email": "email", "displayName": "first_name"}},
///   "logout": {"url": "https://example.com/accounts/logout/", "method": "POST",
///              "csrf": {"cookie": "csrftoken", "header": "X-CSRFToken"}},
///   "sessionLifetimeSeconds": 86400,
///   "timeoutSeconds": 30
/// }
/// ```
///
/// Every URL is `https://` (or `http://` to a loopback host) and on `loginURL`'s origin: the password, the CSRF
/// token and the cookies only ever go to the one site the config names. Success is decided from structure —
/// the session cookie, the redirect target, the form gone — never from the page's words, which change with the
/// site's language and theme.
package struct FormProviderConfig: Sendable, Equatable {
  package static let timeoutSecondsRange = 1...30
  /// A whole request, retries and redirects included, takes at most 30 s: a host waiting on a login must get an
  /// answer.
  package static let defaultTimeoutSeconds = 30

  /// The page holding the login form; fetched first for its hidden inputs (CSRF token) and cookies.
  package let loginURL: String
  package let form: FormChoice
  /// The `name` of the account and password inputs; nil detects them (the form's text or email input, its
  /// password input).
  package let accountField: String?
  package let passwordField: String?
  package let success: SuccessRules
  package let user: UserSource
  /// Nil: logout clears the session locally only, and answers `revoked: false`.
  package let logout: Logout?
  /// How long a session whose cookie has no expiry (a "browser session" cookie) lasts before a refresh re-reads
  /// the user page (see `SessionLifetime`).
  package let sessionLifetimeSeconds: Int
  /// The longest one call to the site may take, redirects and retries included.
  package let timeoutSeconds: Int

  package init(
    loginURL: String, form: FormChoice = .withPassword, accountField: String? = nil, passwordField: String? = nil,
    success: SuccessRules = SuccessRules(), user: UserSource, logout: Logout? = nil,
    sessionLifetimeSeconds: Int = SessionLifetime.defaultSeconds, timeoutSeconds: Int = defaultTimeoutSeconds
  ) {
    precondition(Self.timeoutSecondsRange.contains(timeoutSeconds), "timeoutSeconds out of range")
    precondition(
      SessionLifetime.secondsRange.contains(sessionLifetimeSeconds), "sessionLifetimeSeconds out of range")
    self.loginURL = loginURL
    self.form = form
    self.accountField = accountField
    self.passwordField = passwordField
    self.success = success
    self.user = user
    self.logout = logout
    self.sessionLifetimeSeconds = sessionLifetimeSeconds
    self.timeoutSeconds = timeoutSeconds
  }

  /// Which `<form>` of the login page is the login form.
  package enum FormChoice: Sendable, Equatable {
    /// The first form with a password input (the default).
    case withPassword
    /// The form with this `id`.
    case id(String)
    /// The form at this position among the page's forms, from 0.
    case index(Int)
  }

  /// What proves a login worked. Every rule given must hold; with none given, the login form must be gone from
  /// the page the login ends on.
  package struct SuccessRules: Sendable, Equatable {
    /// A cookie the site sets only to a logged-in browser (`sessionid`, `laravel_session`, …).
    package let sessionCookie: String?
    /// The path (without query) the login must end on after its redirects, e.g. `/accounts/profile/`.
    package let redirectPath: String?

    package init(sessionCookie: String? = nil, redirectPath: String? = nil) {
      self.sessionCookie = sessionCookie
      self.redirectPath = redirectPath
    }
  }

  /// Where the user comes from after the login, and on each refresh (which is how a session is re-checked).
  package struct UserSource: Sendable, Equatable {
    package let url: String
    package let fields: UserFields

    package init(url: String, fields: UserFields) {
      self.url = url
      self.fields = fields
    }
  }

  /// How the user page is read.
  package enum UserFields: Sendable, Equatable {
    /// A JSON document, read through dotted field paths like the `rest` provider's.
    case json(RESTProviderConfig.UserFields)
    /// An HTML page, read through element selectors (`#profile .username`).
    case html(HTMLUserFields)
  }

  /// The elements of an HTML user page whose text gives each field; nil fields are left out. A missing username
  /// falls back to the account typed at login, a missing id to the username.
  package struct HTMLUserFields: Sendable, Equatable {
    package let id: HTMLSelector?
    package let username: HTMLSelector?
    package let email: HTMLSelector?
    package let phone: HTMLSelector?
    package let displayName: HTMLSelector?

    package init(
      id: HTMLSelector? = nil, username: HTMLSelector? = nil, email: HTMLSelector? = nil, phone: HTMLSelector? = nil,
      displayName: HTMLSelector? = nil
    ) {
      self.id = id
      self.username = username
      self.email = email
      self.phone = phone
      self.displayName = displayName
    }
  }

  /// The site's logout.
  package struct Logout: Sendable, Equatable {
    package let url: String
    /// `GET` or `POST`.
    package let method: HTTPMethod
    package let csrf: CSRF?

    package init(url: String, method: HTTPMethod = .post, csrf: CSRF? = nil) {
      self.url = url
      self.method = method
      self.csrf = csrf
    }
  }

  /// How a logout proves it comes from the site's own page.
  package enum CSRF: Sendable, Equatable {
    /// Fetch `url` and send every hidden input of its form `formID` (or its first POST form) with the logout.
    case form(url: String, formID: String?)
    /// Send the value of cookie `cookie` in header `header` (Django's `csrftoken` → `X-CSRFToken`).
    case cookieHeader(cookie: String, header: String)
  }
}
