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

/// Outgoing messages, built as JSON values for the writer.
package enum OutgoingMessage {
  package static func result(id: RequestID, _ result: JSONValue) -> JSONValue {
    .object(["jsonrpc": "2.0", "id": id.json, "result": result])
  }

  package static func error(id: RequestID, _ error: RPCError) -> JSONValue {
    .object(["jsonrpc": "2.0", "id": id.json, "error": error.json])
  }

  package static func notification(method: String, params: JSONObject) -> JSONValue {
    .object(["jsonrpc": "2.0", "method": .string(method), "params": .object(params)])
  }
}
