import AuthCrypto
import AuthJSON

/// The issuer's signing keys (RFC 7517) that we can verify with: RSA (2048 bits or more) and EC P-256.
/// Keys of other types, keys marked for encryption and unusable keys are skipped, not fatal: a JWKS often
/// carries keys for other purposes.
struct JSONWebKeySet: Sendable {
  struct Key: Sendable {
    var keyID: String?
    /// The key's own `alg`, when it names one: it then serves that algorithm only.
    var algorithm: String?
    var key: JWSVerificationKey

    /// Whether this key may verify a token signed with `algorithm`: the key type must serve it (RSA for RS256,
    /// P-256 for ES256) and a key that names its `alg` must name this one.
    func serves(_ algorithm: JWSAlgorithm) -> Bool {
      if let own = self.algorithm, own != algorithm.rawValue { return false }
      switch (key, algorithm) {
      case (.rsa, .rs256), (.ecP256, .es256): return true
      default: return false
      }
    }
  }

  var keys: [Key]

  func contains(keyID: String) -> Bool { keys.contains { $0.keyID == keyID } }

  /// The keys that may verify a token with this header: the one with its `kid` when it names one, else every
  /// key serving the algorithm.
  func candidates(keyID: String?, algorithm: JWSAlgorithm) -> [JWSVerificationKey] {
    keys.filter { (keyID == nil || $0.keyID == keyID) && $0.serves(algorithm) }.map(\.key)
  }

  /// - Throws: `ProviderError.badResponse` when the body is not a JWKS (`{"keys": [...]}`).
  static func parse(_ body: [UInt8]) throws(ProviderError) -> JSONWebKeySet {
    guard case .object(let document)? = try? JSONParser.parse(body), let entries = document["keys"]?.arrayValue else {
      throw ProviderError(.badResponse, "JWKS is not an object with a keys array")
    }
    return JSONWebKeySet(keys: entries.compactMap { $0.objectValue.flatMap(key) })
  }

  private static func key(_ jwk: JSONObject) -> Key? {
    if let use = jwk["use"] {
      guard use.stringValue == "sig" else { return nil }
    }
    if let operations = jwk["key_ops"]?.arrayValue {
      guard operations.contains(.string("verify")) else { return nil }
    }
    let key: JWSVerificationKey
    switch jwk["kty"]?.stringValue {
    case "RSA":
      guard let modulus = bytes("n", jwk), let exponent = bytes("e", jwk) else { return nil }
      key = .rsa(modulus: modulus, exponent: exponent)
    case "EC":
      guard jwk["crv"]?.stringValue == "P-256", let x = bytes("x", jwk), let y = bytes("y", jwk), x.count == 32,
        y.count == 32
      else { return nil }
      key = .ecP256(x: x, y: y)
    default:
      return nil
    }
    guard (try? key.validate()) != nil else { return nil }
    return Key(keyID: jwk["kid"]?.stringValue, algorithm: jwk["alg"]?.stringValue, key: key)
  }

  private static func bytes(_ name: String, _ jwk: JSONObject) -> [UInt8]? {
    jwk[name]?.stringValue.flatMap(Base64URL.decode).flatMap { $0.isEmpty ? nil : $0 }
  }
}
