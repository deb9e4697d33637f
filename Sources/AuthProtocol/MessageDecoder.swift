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

  private static let knownKeys: Set<String> = ["jsonrpc", "id", "method", "params"]

  package func classifyMessage(_ value: JSONValue) -> IncomingMessage {
    guard case .object(let object) = value else {
      return .invalid(id: .null, error: .invalidRequest("a message must be an object"))
    }
    // Recover the id first, so that a malformed request that had one is still answered to it.
    let rawID = object["id"]
    let id = rawID.flatMap(RequestID.init) ?? .null
    if rawID != nil, RequestID(rawID!) == nil {
      return .invalid(id: .null, error: .invalidRequest("id must be a string, a number or null"))
    }
    if object.hasDuplicateKeys {
      return .invalid(id: id, error: .invalidRequest("duplicate member names"))
    }
    guard object["jsonrpc"] == .string("2.0") else {
      return .invalid(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\""))
    }
    guard case .string(let method)? = object["method"] else {
      return .invalid(id: id, error: .invalidRequest("\"method\" must be a string"))
    }
    if let unknown = object.keys.first(where: { !Self.knownKeys.contains($0) }) {
      return .invalid(id: id, error: .invalidRequest("unexpected member \"\(String(unknown.prefix(40)))\""))
    }
    let params = object["params"]
    switch params {
    case nil, .object?, .array?: break
    default: return .invalid(id: id, error: .invalidRequest("\"params\" must be an object or an array"))
    }
    if rawID == nil { return .notification(Notification(method: method, params: params)) }
    return .request(Request(id: id, method: method, params: params))
  }
}
