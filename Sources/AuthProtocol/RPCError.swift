import AuthJSON

/// A JSON-RPC error object: `{code, message, data: {kind, retryable, …}}`.
///
/// `message` is short, human and free of secrets; `details` holds only whitelisted extra
/// fields (`fields`, `status`, `retryAfter`, `provider`, `lastAccount`, …).
package struct RPCError: Error, Sendable, Equatable {
  package var kind: ErrorKind
  package var message: String
  package var details: JSONObject
  package var retryable: Bool

  package init(_ kind: ErrorKind, _ message: String, details: JSONObject = [:], retryable: Bool? = nil) {
    self.kind = kind
    self.message = message
    self.details = details
    self.retryable = retryable ?? kind.isRetryable
  }

  package var code: Int { kind.code }

  package var json: JSONValue {
    var data: JSONObject = ["kind": .string(kind.rawValue), "retryable": .bool(retryable)]
    for member in details.members { data[member.key] = member.value }
    return .object(["code": .number(JSONNumber(code)), "message": .string(message), "data": .object(data)])
  }

  package static func parseError(_ detail: String) -> RPCError {
    RPCError(.parseError, "Parse error: \(detail).")
  }

  package static func invalidRequest(_ detail: String) -> RPCError {
    RPCError(.invalidRequest, "Invalid request: \(detail).")
  }

  package static func methodNotFound(_ method: String) -> RPCError {
    RPCError(.methodNotFound, "Method not found.", details: ["method": .string(String(method.prefix(100)))])
  }
}
