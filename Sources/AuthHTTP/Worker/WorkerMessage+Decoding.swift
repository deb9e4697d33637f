import AuthJSON
import AuthSupport

/// A line that is not a message this build understands. `id` is the request it concerns, when that much
/// could be read, so that the worker can still answer it.
package struct WorkerProtocolError: Error, Sendable, CustomStringConvertible {
  package let id: Int64?
  package let detail: String

  package var description: String { "worker protocol: \(detail)" }
}

extension WorkerMessage {
  /// Deep enough for `headers` (an array of pairs) inside a message, no deeper.
  private static let maxDepth = 4

  /// - Throws: `WorkerProtocolError`; its detail names fields, never their values.
  package init(line: [UInt8]) throws(WorkerProtocolError) {
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(line, maxDepth: Self.maxDepth)
    } catch {
      throw WorkerProtocolError(id: nil, detail: "not JSON (\(error.reason))")
    }
    guard let object = parsed.objectValue, !object.hasDuplicateKeys, let type = object["type"]?.stringValue else {
      throw WorkerProtocolError(id: nil, detail: "not an object with a type")
    }
    let id = Self.int64(object["id"])
    func missing(_ what: String) -> WorkerProtocolError { WorkerProtocolError(id: id, detail: "\(type): \(what)") }
    switch type {
    case "hello":
      guard let version = Self.int64(object["version"]) else { throw missing("no version") }
      guard version == Int64(Self.protocolVersion) else {
        throw missing("version \(version), this build speaks \(Self.protocolVersion)")
      }
      guard let policy = object["policy"]?.objectValue.flatMap(HTTPPolicy.init(wireObject:)) else {
        throw missing("bad policy")
      }
      guard let level = object["logLevel"]?.stringValue.flatMap(LogLevel.init(name:)) else {
        throw missing("bad logLevel")
      }
      self = .hello(policy: policy, logLevel: level)
    case "send":
      guard let id else { throw missing("no id") }
      self = .send(id: id, request: try Self.request(object, fail: missing))
    case "cancel":
      guard let id else { throw missing("no id") }
      self = .cancel(id: id)
    case "response":
      guard let id else { throw missing("no id") }
      guard let status = Self.int64(object["status"]), (100...999).contains(status) else { throw missing("bad status") }
      guard let headers = Self.headers(object["headers"]) else { throw missing("bad headers") }
      guard let body = object["body"]?.stringValue.flatMap(WireBase64.decode) else { throw missing("bad body") }
      guard let finalURL = object["finalURL"]?.stringValue else { throw missing("no finalURL") }
      let response = HTTPResponse(status: Int(status), headers: headers, body: body, finalURL: finalURL)
      self = .response(id: id, response: response)
    case "failure":
      guard let id else { throw missing("no id") }
      guard let code = object["code"]?.stringValue.flatMap(HTTPError.Code.init(wireName:)) else {
        throw missing("unknown code")
      }
      self = .failure(id: id, error: HTTPError(code, object["detail"]?.stringValue ?? ""))
    case "log":
      guard let level = object["level"]?.stringValue.flatMap(LogLevel.init(name:)),
        let message = object["message"]?.stringValue
      else { throw missing("bad level or message") }
      self = .log(level: level, message: message)
    default:
      throw WorkerProtocolError(id: id, detail: "unknown type \(type.prefix(20))")
    }
  }

  private static func request(
    _ object: JSONObject, fail: (String) -> WorkerProtocolError
  ) throws(WorkerProtocolError) -> HTTPRequest {
    guard let method = object["method"]?.stringValue.flatMap(HTTPMethod.init(rawValue:)) else {
      throw fail("no known method")
    }
    guard let url = object["url"]?.stringValue else { throw fail("no url") }
    guard let headers = headers(object["headers"]) else { throw fail("bad headers") }
    guard let idempotent = object["idempotent"]?.boolValue else { throw fail("no idempotent") }
    var body: [UInt8]?
    if let text = object["body"] {
      guard let bytes = text.stringValue.flatMap(WireBase64.decode) else { throw fail("bad body") }
      body = bytes
    }
    var redirects = HTTPRequest.RedirectPolicy.refuse
    if let limit = object["redirectLimit"] {
      guard let max = int64(limit), max >= 0, max <= Int64(Int32.max) else { throw fail("bad redirectLimit") }
      redirects = .followSameOrigin(max: Int(max))
    }
    return HTTPRequest(
      method: method, url: url, headers: headers, body: body, redirects: redirects, idempotent: idempotent)
  }

  private static func headers(_ value: JSONValue?) -> [HTTPHeader]? {
    guard let list = value?.arrayValue else { return nil }
    var headers: [HTTPHeader] = []
    headers.reserveCapacity(list.count)
    for pair in list {
      guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
        let value = items[1].stringValue
      else { return nil }
      headers.append(HTTPHeader(name, value))
    }
    return headers
  }

  private static func int64(_ value: JSONValue?) -> Int64? {
    guard case .number(let number)? = value else { return nil }
    return number.int64Value
  }
}
