import AuthJSON

/// Turns the bytes of one framed message into classified JSON-RPC messages.
///
/// Every failure becomes an error answer, never a thrown error: the transport must keep
/// serving whatever arrives.
package struct MessageDecoder: Sendable {
  package var maxDepth: Int
  package var maxBatchSize: Int

  package init(maxDepth: Int = JSONParser.defaultMaxDepth, maxBatchSize: Int = 10_000) {
    self.maxDepth = maxDepth
    self.maxBatchSize = maxBatchSize
  }

  package func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> IncomingPayload {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes, maxDepth: maxDepth)
    } catch {
      switch error.reason {
      case .syntax: return .rejected(.parseError(error.detail))
      case .tooDeep: return .rejected(.invalidRequest("nesting deeper than \(maxDepth) levels"))
      }
    }
    return classify(value)
  }

  package func classify(_ value: JSONValue) -> IncomingPayload {
    guard case .array(let elements) = value else { return .single(classifyMessage(value)) }
    guard !elements.isEmpty else { return .rejected(.invalidRequest("empty batch")) }
    guard elements.count <= maxBatchSize else {
      return .rejected(.invalidRequest("batch of \(elements.count) messages exceeds the limit of \(maxBatchSize)"))
    }
    return .batch(elements.map(classifyMessage))
  }

  package func classifyMessage(_ value: JSONValue) -> IncomingMessage {
    guard case .object(let object) = value else {
      return .invalid(id: .null, error: .invalidRequest("a message must be an object"))
    }
    // One pass over the members: this runs for every message.
    var rawID: JSONValue?
    var version: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
    var unknown: String?
    for member in object.members {
      switch member.key {
      case "id": if rawID == nil { rawID = member.value }
      case "jsonrpc": if version == nil { version = member.value }
      case "method": if method == nil { method = member.value }
      case "params": if params == nil { params = member.value }
      default: if unknown == nil { unknown = member.key }
      }
    }
    // Recover the id first, so that a malformed request that had one is still answered to it.
    let id: RequestID
    if let rawID {
      guard let valid = RequestID(rawID) else {
        return .invalid(id: .null, error: .invalidRequest("id must be a string, a number or null"))
      }
      id = valid
    } else {
      id = .null
    }
    if object.hasDuplicateKeys {
      return .invalid(id: id, error: .invalidRequest("duplicate member names"))
    }
    guard case .string("2.0")? = version else {
      return .invalid(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\""))
    }
    guard case .string(let methodName)? = method else {
      return .invalid(id: id, error: .invalidRequest("\"method\" must be a string"))
    }
    if let unknown {
      return .invalid(id: id, error: .invalidRequest("unexpected member \"\(String(unknown.prefix(40)))\""))
    }
    switch params {
    case nil, .object?, .array?: break
    default: return .invalid(id: id, error: .invalidRequest("\"params\" must be an object or an array"))
    }
    if rawID == nil { return .notification(Notification(method: methodName, params: params)) }
    return .request(Request(id: id, method: methodName, params: params))
  }
}
