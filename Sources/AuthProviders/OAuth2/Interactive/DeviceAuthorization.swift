import AuthCrypto
import AuthHTTP
import AuthJSON

/// The device authorization response (RFC 8628 §3.2).
struct DeviceAuthorization: Sendable {
  /// Sent back with every poll; never shown, never logged.
  let deviceCode: SecretBytes
  let userCode: String
  let verificationURI: String
  let verificationURIComplete: String?
  let expiresIn: Int64
  /// Seconds between polls (§3.5), 5 when the server gives none.
  let interval: Int64

  static let defaultInterval: Int64 = 5
  /// A server asking for more than this between polls is capped (the user is waiting).
  static let intervalRange: ClosedRange<Int64> = 1...60

  /// - Throws: `ProviderError.badResponse` for anything but a JSON object with the required members.
  static func parse(_ body: [UInt8]) throws(ProviderError) -> DeviceAuthorization {
    guard case .object(let answer)? = try? JSONParser.parse(body), !answer.hasDuplicateKeys else {
      throw ProviderError(.badResponse, "device authorization answer is not a JSON object")
    }
    guard let deviceCode = answer["device_code"]?.stringValue, !deviceCode.isEmpty else {
      throw ProviderError(.badResponse, "device authorization answer has no device_code")
    }
    guard let userCode = answer["user_code"]?.stringValue, (1...64).contains(userCode.utf8.count),
      userCode.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
    else { throw ProviderError(.badResponse, "device authorization answer has no usable user_code") }
    // `verification_url`: the name some servers (Google's) used before the RFC.
    guard let uri = (answer["verification_uri"] ?? answer["verification_url"])?.stringValue, isWebURL(uri) else {
      throw ProviderError(.badResponse, "device authorization answer has no https (or loopback http) verification_uri")
    }
    var complete: String?
    if let value = answer["verification_uri_complete"] {
      guard let text = value.stringValue, isWebURL(text) else {
        throw ProviderError(
          .badResponse, "device authorization verification_uri_complete is not an https (or loopback http) URL")
      }
      complete = text
    }
    guard let expiresIn = IDTokenValidator.seconds(answer["expires_in"]), expiresIn > 0 else {
      throw ProviderError(.badResponse, "device authorization answer has no expires_in")
    }
    var interval = defaultInterval
    if let value = answer["interval"] {
      guard let seconds = IDTokenValidator.seconds(value), seconds >= 0 else {
        throw ProviderError(.badResponse, "device authorization interval is not a number of seconds")
      }
      interval = min(max(seconds, intervalRange.lowerBound), intervalRange.upperBound)
    }
    return DeviceAuthorization(
      deviceCode: SecretBytes(Array(deviceCode.utf8)), userCode: userCode, verificationURI: uri,
      verificationURIComplete: complete, expiresIn: expiresIn, interval: interval)
  }

  /// The host opens or shows these: printable ASCII only, so no control characters reach a browser or a terminal,
  /// and held to the rule of every other URL a server hands us (`RequestTarget`: `https://`, or `http://` to a
  /// `Loopback` host), so no `javascript:` or `file:` URL, and no page where the user types the code that a network
  /// attacker could swap for a look-alike.
  static func isWebURL(_ text: String) -> Bool {
    text.utf8.count <= 2048 && text.utf8.allSatisfy { (0x21...0x7E).contains($0) } && (try? RequestTarget(text)) != nil
  }
}

/// What one poll of the token endpoint with the device code said (RFC 8628 §3.5).
enum DevicePoll {
  case issued(TokenAnswer)
  /// `authorization_pending`: ask again after the interval.
  case pending
  /// `slow_down`: ask again, and from now on 5 s less often.
  case slowDown

  /// - Throws: `ProviderError`: `declined` (`provider: access_denied`) when the user refused;
  ///   `notCompleted` (`provider: expired_token`) when the device code ran out; 429 and 5xx as `RemoteFailures`
  ///   (transient: the caller polls on); `badResponse` with the code for any other refusal (§3.5: stop).
  static func classify(_ response: HTTPResponse) throws(ProviderError) -> DevicePoll {
    if (200..<300).contains(response.status) { return .issued(try TokenAnswer.parse(response.body)) }
    if let failure = RemoteFailures.providerError(status: response) { throw failure }
    let code = TokenAnswer.errorCode(response)
    switch code {
    case "authorization_pending": return .pending
    case "slow_down": return .slowDown
    case "access_denied": throw ProviderError(.declined, "the user denied the device login", upstreamCode: code)
    case "expired_token": throw ProviderError(.notCompleted, "the device code expired", upstreamCode: code)
    default:
      throw ProviderError(
        .badResponse, "token endpoint refused the device code (\(response.status))", upstreamCode: code)
    }
  }
}
