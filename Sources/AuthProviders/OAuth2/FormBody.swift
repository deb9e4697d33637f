import AuthCrypto

/// An `application/x-www-form-urlencoded` body (RFC 6749 Appendix B), built from bytes so that passwords and
/// refresh tokens go from their stores into the body without an intermediate `String`.
struct FormBody: Sendable {
  enum Value: Sendable {
    case text(String)
    case secret(SecretBytes)
  }

  private(set) var bytes: [UInt8] = []

  init(_ fields: [(String, Value)] = []) {
    for (name, value) in fields { append(name, value) }
  }

  mutating func append(_ name: String, _ value: Value) {
    if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
    Self.encode(Array(name.utf8), into: &bytes)
    bytes.append(UInt8(ascii: "="))
    switch value {
    case .text(let text): Self.encode(Array(text.utf8), into: &bytes)
    case .secret(let secret): secret.withUnsafeBytes { Self.encode($0, into: &bytes) }
    }
  }

  static func encode(_ input: some Sequence<UInt8>, into out: inout [UInt8]) {
    FormEncoding.encode(input, into: &out)
  }

  /// RFC 6749 §2.3.1: `Basic base64(form-encode(client_id) ":" form-encode(client_secret))`.
  static func basicAuthorization(clientID: String, secret: SecretBytes) -> String {
    var credentials: [UInt8] = []
    encode(Array(clientID.utf8), into: &credentials)
    credentials.append(UInt8(ascii: ":"))
    secret.withUnsafeBytes { encode($0, into: &credentials) }
    defer { for index in credentials.indices { credentials[index] = 0 } }
    return "Basic " + Base64.encode(credentials)
  }
}
