import AuthJSON

@testable import AuthProtocol

/// An `IncomingPayload` reduced to comparable values, so tests can state whole expectations.
enum Decoded: Equatable {
  case single(Message)
  case batch([Message])
  case rejected(ErrorKind)

  enum Message: Equatable {
    case request(id: RequestID, method: String, params: JSONValue?)
    case notification(method: String, params: JSONValue?)
    case invalid(id: RequestID, kind: ErrorKind)
  }

  init(_ payload: IncomingPayload) {
    switch payload {
    case .single(let message): self = .single(Message(message))
    case .batch(let messages): self = .batch(messages.map(Message.init))
    case .rejected(let error): self = .rejected(error.kind)
    }
  }

  /// Decodes `text` as one framed message.
  static func decode(_ text: String, with decoder: MessageDecoder = MessageDecoder()) -> Decoded {
    decode(Array(text.utf8), with: decoder)
  }

  static func decode(_ bytes: [UInt8], with decoder: MessageDecoder = MessageDecoder()) -> Decoded {
    Decoded(payload(bytes, with: decoder))
  }

  static func payload(_ text: String, with decoder: MessageDecoder = MessageDecoder()) -> IncomingPayload {
    payload(Array(text.utf8), with: decoder)
  }

  static func payload(_ bytes: [UInt8], with decoder: MessageDecoder = MessageDecoder()) -> IncomingPayload {
    bytes.withUnsafeBufferPointer { decoder.decode($0) }
  }

  /// The error of an invalid single message or a rejected payload.
  static func error(_ text: String) -> RPCError? {
    switch payload(text) {
    case .rejected(let error): return error
    case .single(.invalid(_, let error)): return error
    default: return nil
    }
  }
}

extension Decoded.Message {
  init(_ message: IncomingMessage) {
    switch message {
    case .request(let request): self = .request(id: request.id, method: request.method, params: request.params)
    case .notification(let notification): self = .notification(method: notification.method, params: notification.params)
    case .invalid(let id, let error): self = .invalid(id: id, kind: error.kind)
    }
  }
}

/// Parses JSON that the test itself wrote.
func json(_ text: String) -> JSONValue {
  guard let value = try? JSONParser.parse(text) else { preconditionFailure("test JSON does not parse: \(text)") }
  return value
}
