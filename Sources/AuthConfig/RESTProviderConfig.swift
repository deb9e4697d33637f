import AuthHTTP
import AuthValidation

/// Settings of the `rest` provider: any JSON or form login API (Django REST framework SimpleJWT, a
/// `POST /auth/login → {token, user}` API, …), described by its endpoints, body templates and the paths of
/// the fields in its answers.
///
/// Every request goes to `baseURL` + an endpoint's `path`: one origin, so tokens and passwords can never be
/// sent anywhere the config did not name. `baseURL` is `https://`, or `http://` to a loopback host.
package struct RESTProviderConfig: Sendable, Equatable {
  package static let timeoutSecondsRange = 1...30
  /// A whole request, retries included, takes at most 30 s: a host waiting on a login must get an answer.
  package static let defaultTimeoutSeconds = 30
  package static let defaultAuthScheme = "Bearer"

  /// `https://host[:port][/prefix]` without a trailing slash, the host lower-cased.
  package let baseURL: String
  package let login: Endpoint
  package let refresh: Endpoint?
  package let logout: Endpoint?
  package let user: Endpoint?
  package let register: Endpoint?
  /// Where login, refresh and register answers keep their fields.
  package let response: ResponseFields
  /// Where a user object (from `response.user` or the user endpoint) keeps its fields.
  package let userFields: UserFields
  /// Sent with every request, in order.
  package let headers: [Header]
  /// The `Authorization` scheme the access token is sent with (`Bearer`, DRF's `Token`, …).
  package let authScheme: String
  /// The longest one call to the API may take, retries included.
  package let timeoutSeconds: Int
  /// How long a session of unknown expiry lasts before it is re-checked with the server (see `SessionLifetime`).
  package let sessionLifetimeSeconds: Int
  /// What a login request carries beyond the account and password: kind names, host context, an encrypted password.
  package let loginRequest: LoginRequest
  /// The one-time code flows (see `RESTProviderConfig+Codes.swift`).
  package let codes: Codes
  /// The one kind of account the login body can be filled for (`{phoneE164}` needs a phone); nil when any will do.
  /// Worked out once here: every login asks.
  package let loginAccountKind: AccountKind?

  package init(
    baseURL: String, login: Endpoint, refresh: Endpoint? = nil, logout: Endpoint? = nil, user: Endpoint? = nil,
    register: Endpoint? = nil, response: ResponseFields, userFields: UserFields = .defaults, headers: [Header] = [],
    authScheme: String = defaultAuthScheme, timeoutSeconds: Int = defaultTimeoutSeconds,
    sessionLifetimeSeconds: Int = SessionLifetime.defaultSeconds,
    loginRequest: LoginRequest = .plain, codes: Codes = .none
  ) {
    precondition(Self.timeoutSecondsRange.contains(timeoutSeconds), "timeoutSeconds out of range")
    precondition(
      SessionLifetime.secondsRange.contains(sessionLifetimeSeconds), "sessionLifetimeSeconds out of range")
    self.baseURL = baseURL
    self.login = login
    self.refresh = refresh
    self.logout = logout
    self.user = user
    self.register = register
    self.response = response
    self.userFields = userFields
    self.headers = headers
    self.authScheme = authScheme
    self.timeoutSeconds = timeoutSeconds
    self.sessionLifetimeSeconds = sessionLifetimeSeconds
    self.loginRequest = loginRequest
    self.codes = codes
    loginAccountKind = login.body.lazy.flatMap { $0.template.placeholders }.compactMap { $0.requiredAccountKind }.first
  }

  /// A tokenless API: its sessions carry the user and no access token.
  package var isTokenless: Bool { response.accessToken == nil }

  /// The absolute URL of `endpoint`.
  package func url(_ endpoint: Endpoint) -> String { baseURL + endpoint.path }

  // MARK: - Parts

  package enum Encoding: String, Sendable, Equatable, CaseIterable {
    /// `application/json`: the body members as a flat JSON object of strings.
    case json
    /// `application/x-www-form-urlencoded`.
    case form
  }

  /// One endpoint of the API.
  package struct Endpoint: Sendable, Equatable {
    /// Starts with `/`; may carry a query.
    package let path: String
    package let method: HTTPMethod
    package let encoding: Encoding
    /// The body members in order; empty sends no body.
    package let body: [BodyField]
    /// Logout only: send the access token in `Authorization` as well.
    package let sendAccessToken: Bool
    /// User endpoint only: where the user object is in the answer; nil when the whole answer is the user.
    package let userPath: FieldPath?

    package init(
      path: String, method: HTTPMethod = .post, encoding: Encoding = .json, body: [BodyField] = [],
      sendAccessToken: Bool = false, userPath: FieldPath? = nil
    ) {
      self.path = path
      self.method = method
      self.encoding = encoding
      self.body = body
      self.sendAccessToken = sendAccessToken
      self.userPath = userPath
    }
  }

  /// One body member: its name and the template its value is made from.
  package struct BodyField: Sendable, Equatable {
    package let name: String
    package let template: Template

    package init(_ name: String, _ template: Template) {
      self.name = name
      self.template = template
    }
  }

  /// The values a body template can take from the request at hand.
  package enum Placeholder: String, Sendable, Equatable, CaseIterable {
    /// What the user typed to log in (whatever its kind), surrounding white space trimmed; at registration the
    /// username.
    case username
    case password
    /// Same as `username`, for APIs whose single login field takes a username, an email or a phone.
    case account
    /// The account when it is an email (login), or the registration's email.
    case email
    case refreshToken
    /// Login only: the account as validation normalized it (an email's domain lower-cased, a phone in E.164).
    case accountNormalized
    /// Login only, phones only: `+8613812345678`.
    case phoneE164
    /// Login only, phones only: the national number, digits only (`13812345678`).
    case phoneNational
    /// Login only, emails only: the address with its domain lower-cased.
    case emailNormalized
    /// Login only: `phone`, `email` or `username`, or the name `loginRequest.accountKinds` gives it.
    case accountKind

    /// The values only an account of one kind has; a login whose account is of another kind cannot be sent.
    package var requiredAccountKind: AccountKind? {
      switch self {
      case .phoneE164, .phoneNational: .phone
      case .emailNormalized: .email
      default: nil
      }
    }

    /// Code flows: the code the user typed; a step-up's challenge; the new password of a reset.
    case code, challenge, newPassword
    /// `sendCode`: the purpose under the API's name (`purposes`), and `sms` or `email`.
    case purpose, channel
  }

  /// A body value: literal text with `{placeholder}`s, checked when the config loads.
  package struct Template: Sendable, Equatable {
    package enum Segment: Sendable, Equatable {
      case text(String)
      case placeholder(Placeholder)
      /// `{context.name}`: a value the host supplied with the login, under a name the profile declares.
      case context(String)
    }

    package let segments: [Segment]

    package init(_ segments: [Segment]) { self.segments = segments }

    package var placeholders: [Placeholder] {
      segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }
  }

  /// A dotted path to a field of a JSON answer, like `data.token`; a numeric component indexes an array.
  package struct FieldPath: Sendable, Equatable, CustomStringConvertible {
    package let components: [String]

    package init(_ components: [String]) {
      precondition(!components.isEmpty && components.allSatisfy { !$0.isEmpty }, "empty field path component")
      self.components = components
    }

    /// Nil when `text` is empty or has an empty component (`a..b`, `.a`, `a.`).
    package init?(parsing text: String) {
      let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard !text.isEmpty, components.allSatisfy({ !$0.isEmpty }) else { return nil }
      self.components = components
    }

    package var description: String { components.joined(separator: ".") }
  }

  /// Where login, refresh and register answers keep their fields, and the rules that read them. Either
  /// `accessToken` or `success` is required: without a token and without a rule nothing could tell a refused
  /// login from an accepted one.
  package struct ResponseFields: Sendable, Equatable {
    /// Nil for a tokenless API (one that only answers "yes" or "no"): its sessions have `tokenType` `"none"`.
    package let accessToken: FieldPath?
    package let refreshToken: FieldPath?
    /// Seconds until the access token expires; without it the token's JWT `exp` claim is used, and without that
    /// the session is re-checked every `sessionLifetimeSeconds`.
    package let expiresIn: FieldPath?
    /// The user object; without it the user endpoint, then the access token's JWT claims.
    package let user: FieldPath?
    package let tokenType: FieldPath?
    /// What an accepted answer must say; nil: a 2xx with a plausible access token is accepted.
    package let success: AnswerRule?
    /// What a refused login's answer says when no account has the identity; nil keeps every refusal generic, so
    /// the sidecar never tells which accounts exist unless the server already does.
    package let unknownAccount: AnswerRule?

    package init(
      accessToken: FieldPath?, refreshToken: FieldPath? = nil, expiresIn: FieldPath? = nil, user: FieldPath? = nil,
      tokenType: FieldPath? = nil, success: AnswerRule? = nil, unknownAccount: AnswerRule? = nil
    ) {
      precondition(accessToken != nil || success != nil, "a rest answer needs an access token path or a success rule")
      self.accessToken = accessToken
      self.refreshToken = refreshToken
      self.expiresIn = expiresIn
      self.user = user
      self.tokenType = tokenType
      self.success = success
      self.unknownAccount = unknownAccount
    }
  }

  /// Where a user object keeps the fields hosts see. A missing `username` falls back to the account typed at
  /// login, a missing `id` to the username.
  package struct UserFields: Sendable, Equatable {
    package static let defaults = UserFields()

    package let id: FieldPath
    package let username: FieldPath
    package let email: FieldPath
    package let phone: FieldPath
    package let displayName: FieldPath

    package init(
      id: FieldPath = FieldPath(["id"]), username: FieldPath = FieldPath(["username"]),
      email: FieldPath = FieldPath(["email"]), phone: FieldPath = FieldPath(["phone"]),
      displayName: FieldPath = FieldPath(["displayName"])
    ) {
      self.id = id
      self.username = username
      self.email = email
      self.phone = phone
      self.displayName = displayName
    }
  }

  /// A header sent with every request.
  package struct Header: Sendable, Equatable, CustomStringConvertible {
    package let name: String
    package let value: String

    package init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }

    /// The name only: a value may be an API key.
    package var description: String { "Header(\(name))" }
  }
}
