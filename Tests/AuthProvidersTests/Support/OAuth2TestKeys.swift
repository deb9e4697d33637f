import AuthCrypto
import AuthJSON
import Foundation

@testable import AuthProviders

/// Signing keys made for the test by the `openssl` command line (RSA 2048 and EC P-256), so ID tokens can be
/// signed with any header and claims: real signatures under keys the code under test has never seen.
final class OAuth2TestKey: Sendable {
  enum Kind: Sendable { case rsa, ec }

  let kind: Kind
  let keyID: String
  /// The private key in PEM, kept in memory; written to a temporary file only while `openssl` signs.
  let pem: Data
  let verificationKey: JWSVerificationKey

  struct ToolError: Error, CustomStringConvertible { let description: String }

  /// One RSA and one EC key per test process, plus a second RSA key for "signed by someone else".
  static let rsa = try! OAuth2TestKey(.rsa, keyID: "rsa-1")
  static let otherRSA = try! OAuth2TestKey(.rsa, keyID: "rsa-1")
  static let ec = try! OAuth2TestKey(.ec, keyID: "ec-1")

  init(_ kind: Kind, keyID: String) throws {
    self.kind = kind
    self.keyID = keyID
    (pem, verificationKey) = try Self.inTemporaryDirectory { directory in
      let path = directory + "/key.pem"
      switch kind {
      case .rsa:
        try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", path])
        let text = String(decoding: try Self.openssl(["rsa", "-in", path, "-noout", "-modulus"]), as: UTF8.self)
        let hex = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: "")
        let key = JWSVerificationKey.rsa(modulus: Self.bytes(hex: hex), exponent: [1, 0, 1])
        return (try Data(contentsOf: URL(fileURLWithPath: path)), key)
      case .ec:
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
        let der = try Self.openssl(["pkey", "-in", path, "-pubout", "-outform", "DER"])
        let point = Array(der.suffix(65))  // 0x04 || x || y at the end of the SubjectPublicKeyInfo
        let key = JWSVerificationKey.ecP256(x: Array(point[1..<33]), y: Array(point[33..<65]))
        return (try Data(contentsOf: URL(fileURLWithPath: path)), key)
      }
    }
  }

  /// Runs `body` with a fresh private directory that is removed afterwards.
  static func inTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = NSTemporaryDirectory() + "oauth2-test-key-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }

  var algorithm: String { kind == .rsa ? "RS256" : "ES256" }

  /// This key as a JWK member of a JWKS.
  var jwk: JSONValue {
    switch verificationKey {
    case .rsa(let modulus, let exponent):
      return .object([
        "kty": "RSA", "kid": .string(keyID), "use": "sig", "alg": "RS256", "n": .string(Base64URL.encode(modulus)),
        "e": .string(Base64URL.encode(exponent)),
      ])
    case .ecP256(let x, let y):
      return .object([
        "kty": "EC", "kid": .string(keyID), "use": "sig", "crv": "P-256", "x": .string(Base64URL.encode(x)),
        "y": .string(Base64URL.encode(y)),
      ])
    default:
      return .null
    }
  }

  /// A compact JWS over `header` and `claims`, signed with this key (the header is used as given).
  func sign(header: JSONObject, claims: JSONObject) throws -> String {
    let input =
      Base64URL.encode(JSONWriter.encode(.object(header))) + "." + Base64URL.encode(JSONWriter.encode(.object(claims)))
    var signature = try Self.inTemporaryDirectory { directory in
      try pem.write(to: URL(fileURLWithPath: directory + "/key.pem"))
      try Data(input.utf8).write(to: URL(fileURLWithPath: directory + "/input"))
      return Array(try Self.openssl(["dgst", "-sha256", "-sign", directory + "/key.pem", directory + "/input"]))
    }
    if kind == .ec { signature = try Self.rawECDSA(fromDER: signature) }
    return input + "." + Base64URL.encode(signature)
  }

  /// The usual header for this key: its algorithm and key id.
  func sign(claims: JSONObject) throws -> String {
    try sign(header: ["alg": .string(algorithm), "kid": .string(keyID), "typ": "JWT"], claims: claims)
  }

  @discardableResult
  static func openssl(_ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ToolError(description: "openssl \(arguments.first ?? "") failed with \(process.terminationStatus)")
    }
    return data
  }

  static func bytes(hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return bytes
  }

  /// `SEQUENCE { INTEGER r, INTEGER s }` → `r || s`, 32 bytes each (RFC 7518 §3.4).
  static func rawECDSA(fromDER der: [UInt8]) throws -> [UInt8] {
    var index = 2  // SEQUENCE tag and (short) length
    var raw: [UInt8] = []
    for _ in 0..<2 {
      guard der[index] == 0x02 else { throw ToolError(description: "not a DER ECDSA signature") }
      let length = Int(der[index + 1])
      var integer = Array(der[(index + 2)..<(index + 2 + length)])
      while integer.count > 32, integer.first == 0 { integer.removeFirst() }
      raw += [UInt8](repeating: 0, count: 32 - integer.count) + integer
      index += 2 + length
    }
    return raw
  }
}

/// Claims of a valid ID token for `OAuth2Fixture`'s issuer and client at `now`.
func oauth2Claims(now: Int64, _ changes: [String: JSONValue?] = [:]) -> JSONObject {
  var claims: [(String, JSONValue)] = [
    ("iss", .string(OAuth2Fixture.issuer)), ("sub", "42"), ("aud", .string(OAuth2Fixture.clientID)),
    ("exp", .number(JSONNumber(now + 300))), ("iat", .number(JSONNumber(now))), ("preferred_username", "alice"),
    ("name", "Alice Liddell"), ("email", "alice@example.com"),
  ]
  for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
    claims.removeAll { $0.0 == key }
    if let value { claims.append((key, value)) }
  }
  var object = JSONObject()
  for (key, value) in claims { object.appendNew(key: key, value: value) }
  return object
}
