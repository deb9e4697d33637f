import AuthConfig
import AuthJSON

/// The values a `rest` body template takes from the request at hand. Absent values leave their members out.
struct RESTTemplateValues {
  var username: String?
  var password: String?
  var account: String?
  var email: String?
  var refreshToken: String?
  /// The code flows' values (see `RESTTemplateValues+Codes.swift`).
  var code: String?
  var challenge: String?
  var newPassword: String?
  var purpose: String?
  var channel: String?

  /// At login, the one account field a login form has: `{username}` and `{account}` are what the user typed,
  /// whatever its kind; `{email}` only when it is an email.
  static func login(_ account: LoginAccount, password: String) -> RESTTemplateValues {
    var values = naming(account)
    values.password = password
    return values
  }

  static func registration(_ registration: Registration, password: String) -> RESTTemplateValues {
    RESTTemplateValues(
      username: registration.username, password: password, account: registration.username, email: registration.email)
  }

  func value(_ placeholder: RESTProviderConfig.Placeholder) -> String? {
    switch placeholder {
    case .username: username
    case .password: password
    case .account: account
    case .email: email
    case .refreshToken: refreshToken
    case .code: code
    case .challenge: challenge
    case .newPassword: newPassword
    case .purpose: purpose
    case .channel: channel
    }
  }
}

/// Renders an endpoint's body templates and encodes them as the endpoint says.
enum RESTBody {
  /// The body bytes and their content type; nil when the endpoint sends no body.
  static func render(_ endpoint: RESTProviderConfig.Endpoint, _ values: RESTTemplateValues)
    -> (contentType: String, bytes: [UInt8])?
  {
    guard !endpoint.body.isEmpty else { return nil }
    var members: [(String, String)] = []
    for field in endpoint.body {
      if let text = render(field.template, values) { members.append((field.name, text)) }
    }
    switch endpoint.encoding {
    case .json:
      var object = JSONObject()
      for (name, text) in members { object.appendNew(key: name, value: .string(text)) }
      return ("application/json", JSONWriter.encode(.object(object)))
    case .form:
      var bytes: [UInt8] = []
      for (index, (name, text)) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: "&")) }
        formEncode(name, into: &bytes)
        bytes.append(UInt8(ascii: "="))
        formEncode(text, into: &bytes)
      }
      return ("application/x-www-form-urlencoded", bytes)
    }
  }

  /// The template's text, or nil when one of its placeholders has no value (the member is then left out).
  static func render(_ template: RESTProviderConfig.Template, _ values: RESTTemplateValues) -> String? {
    var text = ""
    for segment in template.segments {
      switch segment {
      case .text(let literal): text += literal
      case .placeholder(let name):
        guard let value = values.value(name) else { return nil }
        text += value
      }
    }
    return text
  }

  static func formEncode(_ text: String, into bytes: inout [UInt8]) {
    FormEncoding.encode(text.utf8, into: &bytes)
  }
}
