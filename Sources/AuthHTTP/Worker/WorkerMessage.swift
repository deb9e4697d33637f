import AuthJSON
import AuthSupport

/// One line between `WorkerHTTPClient` and the `auth-sidecar-http` worker: a compact JSON object with a
/// `type`, then `\n`. Bodies travel as base64; every other field is text or a number.
///
/// Parent to worker: `hello` once, first (the policy and log level; nothing secret, which is why it is not
/// in argv either), then `send` and `cancel`. Worker to parent: one `response` or `failure` per `send`,
/// whether or not it was cancelled, and `log` lines the parent writes to its own log.
package enum WorkerMessage: Sendable {
  case hello(policy: HTTPPolicy, logLevel: LogLevel)
  case send(id: Int64, request: HTTPRequest)
  case cancel(id: Int64)
  case response(id: Int64, response: HTTPResponse)
  case failure(id: Int64, error: HTTPError)
  case log(level: LogLevel, message: String)

  /// Bumped on any change a worker of another build would misread; the worker refuses another version.
  package static let protocolVersion = 1

  /// The JSON object and its newline.
  package var line: [UInt8] {
    var bytes = JSONWriter.encode(.object(object))
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  private var object: JSONObject {
    switch self {
    case .hello(let policy, let logLevel):
      return [
        "type": "hello", "version": .number(JSONNumber(Self.protocolVersion)), "logLevel": .string(logLevel.name),
        "policy": .object(policy.wireObject),
      ]
    case .send(let id, let request):
      var object: JSONObject = [
        "type": "send", "id": .number(JSONNumber(id)), "method": .string(request.method.rawValue),
        "url": .string(request.url),
        "headers": Self.headers(request.headers), "idempotent": .bool(request.idempotent),
      ]
      if let body = request.body { object.appendNew(key: "body", value: .string(WireBase64.encode(body))) }
      if case .followSameOrigin(let limit) = request.redirects {
        object.appendNew(key: "redirectLimit", value: .number(JSONNumber(limit)))
      }
      return object
    case .cancel(let id):
      return ["type": "cancel", "id": .number(JSONNumber(id))]
    case .response(let id, let response):
      return [
        "type": "response", "id": .number(JSONNumber(id)), "status": .number(JSONNumber(response.status)),
        "headers": Self.headers(response.headers), "body": .string(WireBase64.encode(response.body)),
        "finalURL": .string(response.finalURL),
      ]
    case .failure(let id, let error):
      return [
        "type": "failure", "id": .number(JSONNumber(id)), "code": .string(error.code.wireName),
        "detail": .string(error.detail),
      ]
    case .log(let level, let message):
      return ["type": "log", "level": .string(level.name), "message": .string(message)]
    }
  }

  /// `[[name, value], …]`: a list, since names repeat (`set-cookie`) and order matters.
  private static func headers(_ headers: [HTTPHeader]) -> JSONValue {
    .array(headers.map { .array([.string($0.name), .string($0.value)]) })
  }
}

extension HTTPError.Code {
  /// The case name, spelled out rather than reflected so that a rename cannot change the wire silently.
  package var wireName: String {
    switch self {
    case .invalidURL: return "invalidURL"
    case .insecureURL: return "insecureURL"
    case .invalidRequest: return "invalidRequest"
    case .networkUnavailable: return "networkUnavailable"
    case .timeout: return "timeout"
    case .tls: return "tls"
    case .responseTooLarge: return "responseTooLarge"
    case .redirectRefused: return "redirectRefused"
    case .cancelled: return "cancelled"
    case .corruptCookieJar: return "corruptCookieJar"
    }
  }

  package init?(wireName: String) {
    guard let code = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
    self = code
  }
}
