import AuthConfig
import AuthJSON

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
      case .context(let name):
        guard let value = values.context(name) else { return nil }
        text += value
      }
    }
    return text
  }

  static func formEncode(_ text: String, into bytes: inout [UInt8]) {
    FormEncoding.encode(text.utf8, into: &bytes)
  }
}
