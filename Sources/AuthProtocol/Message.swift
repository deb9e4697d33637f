import AuthJSON

/// A request: it has an id and must be answered exactly once.
package struct Request: Sendable {
  package let id: RequestID
  package let method: String
  package let params: JSONValue?
}

/// A notification: no id, never answered.
package struct Notification: Sendable {
  package let method: String
  package let params: JSONValue?
}

/// One element of what the host sent, classified by shape.
package enum IncomingMessage: Sendable {
  case request(Request)
  case notification(Notification)
  /// Not a valid request object; answered with `error` and `id` (null when it could not be read).
  case invalid(id: RequestID, error: RPCError)
}

/// A whole line (or LSP body): one message or a batch.
package enum IncomingPayload: Sendable {
  case single(IncomingMessage)
  case batch([IncomingMessage])
  /// Not JSON, or refused before classification (too deep, empty batch, batch too large).
  case rejected(RPCError)
}

/// A message to the host. Answers are written straight into the output buffer: the envelope
/// around an already-encoded result is never built as a tree.
package enum OutgoingMessage: Sendable, Equatable {
  case result(id: RequestID, EncodedJSON)
  case error(id: RequestID, RPCError)
  case batch([OutgoingMessage])
  case notification(method: String, params: JSONObject)
  /// A whole message already encoded, envelope included (the request fast path's answers).
  case encoded(EncodedJSON)

  /// How every answer starts; the result or error follows the id.
  package static let envelopeHead: StaticString = #"{"jsonrpc":"2.0","id":"#
  package static let resultKey: StaticString = #","result":"#

  package static func result(id: RequestID, _ value: JSONValue) -> OutgoingMessage {
    .result(id: id, EncodedJSON(value))
  }

  package func encode(into out: inout [UInt8]) {
    switch self {
    case .result(let id, let result):
      out.append(static: Self.envelopeHead)
      JSONWriter.write(id.json, into: &out)
      out.append(static: Self.resultKey)
      out.append(contentsOf: result.bytes)
      out.append(UInt8(ascii: "}"))
    case .error(let id, let error):
      out.append(static: Self.envelopeHead)
      JSONWriter.write(id.json, into: &out)
      out.append(static: #","error":"#)
      JSONWriter.write(error.json, into: &out)
      out.append(UInt8(ascii: "}"))
    case .batch(let messages):
      out.append(UInt8(ascii: "["))
      for (i, message) in messages.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        message.encode(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .notification(let method, let params):
      JSONWriter.write(.object(["jsonrpc": "2.0", "method": .string(method), "params": .object(params)]), into: &out)
    case .encoded(let message):
      out.append(contentsOf: message.bytes)
    }
  }

  package var encoded: [UInt8] {
    var out: [UInt8] = []
    encode(into: &out)
    return out
  }

  /// The message as a tree, for tests and tools.
  package var json: JSONValue { (try? JSONParser.parse(encoded, maxDepth: 512)) ?? .null }
}
