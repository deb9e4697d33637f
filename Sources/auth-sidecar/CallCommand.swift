#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthDispatch
import AuthJSON
import AuthProtocol
import AuthSupport
import Synchronization

/// `auth-sidecar call METHOD [PARAMS_JSON|-]`: one request through the same dispatcher the
/// stdio server uses, for shells and debugging.
struct CallCommand {
  let wiring: Wiring

  /// - Returns: the process exit code (0 result, 2 error answer, 64 usage).
  func run(method: String, paramsArgument: String?) -> Int32 {
    var paramsText = paramsArgument ?? "{}"
    if paramsArgument == "-" { paramsText = readStandardInput() }
    guard case .object(var params)? = try? JSONParser.parse(paramsText) else {
      Logger.standardError("auth-sidecar: PARAMS_JSON must be a JSON object\n")
      return 64
    }
    // `--profile` is the profile of the request, like a `profile` param: a shell user must not be answered for
    // `default` without noticing.
    if let profile = wiring.options.profile {
      if let named = params["profile"], named != .string(profile) {
        Logger.standardError("auth-sidecar: --profile and the params' \"profile\" name different profiles\n")
        return 64
      }
      params["profile"] = .string(profile)
    }
    let request: JSONValue = .object([
      "jsonrpc": "2.0", "id": 1, "method": .string(method), "params": .object(params),
    ])
    let capture = CapturingSender()
    let server = wiring.makeServer(sender: capture)
    JSONWriter.encode(request).withUnsafeBufferPointer { server.receive($0) }
    server.drain(timeoutMilliseconds: 120_000)
    // Notifications (sessionChanged) may come first; the answer is the message with the id.
    let answers = capture.messages.compactMap { message -> JSONObject? in
      guard case .notification = message else { return message.json.objectValue }
      return nil
    }
    guard let answer = answers.first else { return 70 }
    if let result = answer["result"] {
      print(JSONWriter.string(result))
      return 0
    }
    print(JSONWriter.string(answer["error"] ?? .null))
    return 2
  }

  private func readStandardInput() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = read(STDIN_FILENO, &buffer, buffer.count)
      if n <= 0 { break }
      bytes.append(contentsOf: buffer[..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Keeps the messages the dispatcher sends, for `call`.
final class CapturingSender: MessageSender {
  private let stored = Mutex<[OutgoingMessage]>([])
  func send(_ message: OutgoingMessage) { stored.withLock { $0.append(message) } }
  var messages: [OutgoingMessage] { stored.withLock { $0 } }
}
