import AuthJSON
import AuthSupport
import Synchronization

/// One code on its way to a person: what the delivery command reads from stdin.
struct CodeMessage: Sendable {
  /// An email address or an E.164 phone number.
  let to: String
  let channel: CodeChannel
  let code: String
  let purpose: CodePurpose
  /// Unix seconds.
  let expiresAt: Int64

  /// `{to, channel, code, purpose, expiresAt}`, one line of JSON.
  var json: [UInt8] {
    let object: JSONValue = .object([
      "to": .string(to), "channel": .string(channel.rawValue), "code": .string(code),
      "purpose": .string(purpose.rawValue), "expiresAt": .string(RFC3339.format(expiresAt)),
    ])
    return JSONWriter.encode(object) + [UInt8(ascii: "\n")]
  }
}

/// Where the local provider hands a code to be sent: the configured command in production. A seam because test
/// mode also keeps the last code for `test.lastCode`.
protocol CodeDelivery: Sendable {
  /// - Throws: `ProviderError.deliveryFailed`.
  func deliver(_ message: CodeMessage) async throws
}

/// `local.codeDelivery.command`: the message on the command's stdin — never in its argv or environment.
struct CommandCodeDelivery: CodeDelivery {
  /// A delivery gateway that hangs must not hold a request forever.
  static let timeoutSeconds = 15

  let argv: [String]
  let log: Logger

  func deliver(_ message: CodeMessage) async throws {
    let (argv, bytes) = (argv, message.json)
    do {
      try await Blocking.run { try StdinCommand.run(argv, stdin: bytes, timeoutSeconds: Self.timeoutSeconds) }
    } catch let failure as StdinCommand.Failure {
      // The failure names the program and its status, never the message.
      log.warning("code delivery failed: \(failure.description)")
      throw ProviderError(.deliveryFailed, "code delivery command failed")
    }
  }
}

/// Test mode only: remembers the last code per destination and per account, so that `test.lastCode` can script a
/// whole code flow in a golden transcript; the code still goes to the real delivery.
package final class IssuedCodeLog: Sendable {
  private let codes = Mutex<(last: String?, byKey: [String: String])>((nil, [:]))

  package init() {}

  func record(_ code: String, keys: [String]) {
    codes.withLock { state in
      state.last = code
      for key in keys { state.byKey[key] = code }
    }
  }

  /// The last code issued to `account` (as typed, normalized, or its contact), or the last of all.
  package func lastCode(for account: String?) -> String? {
    codes.withLock { state in account.map { state.byKey[$0] } ?? state.last }
  }
}
