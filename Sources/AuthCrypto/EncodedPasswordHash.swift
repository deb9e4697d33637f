/// One stored password hash in PHC string format, parsed strictly: a string we did not write byte for byte
/// (other parameter order, leading zeros, padding, extra fields) is malformed, never guessed at.
struct EncodedPasswordHash {
  let algorithm: PasswordHasher.Algorithm
  let salt: [UInt8]
  let hash: [UInt8]

  /// PHC recommends at least 8 bytes of salt; 64 is a sanity bound for both fields.
  static let saltByteRange = 8...64
  static let hashByteRange = 16...64

  init(algorithm: PasswordHasher.Algorithm, salt: [UInt8], hash: [UInt8]) {
    self.algorithm = algorithm
    self.salt = salt
    self.hash = hash
  }

  /// - Throws: `CryptoError.malformedInput`, whose message never quotes the string.
  init(parsing encoded: String) throws {
    let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
    guard fields.count == 5, fields[0].isEmpty else { throw Self.malformed("expected $id$params$salt$hash") }
    algorithm = try Self.parseAlgorithm(id: fields[1], parameters: fields[2])
    guard let salt = Base64Codec.decode(String(fields[3]), alphabet: .standard, padded: false),
      Self.saltByteRange.contains(salt.count)
    else { throw Self.malformed("bad salt") }
    guard let hash = Base64Codec.decode(String(fields[4]), alphabet: .standard, padded: false),
      Self.hashByteRange.contains(hash.count)
    else { throw Self.malformed("bad hash") }
    self.salt = salt
    self.hash = hash
  }

  var encoded: String {
    let parameters =
      switch algorithm {
      case .pbkdf2SHA256(let iterations): "pbkdf2-sha256$i=\(iterations)"
      case .scrypt(let logN, let r, let p): "scrypt$ln=\(logN),r=\(r),p=\(p)"
      }
    let salt = Base64Codec.encode(salt, alphabet: .standard, padded: false)
    let hash = Base64Codec.encode(hash, alphabet: .standard, padded: false)
    return "$\(parameters)$\(salt)$\(hash)"
  }

  private static func parseAlgorithm(id: Substring, parameters: Substring) throws -> PasswordHasher.Algorithm {
    switch id {
    case "pbkdf2-sha256":
      let values = try parseParameters(parameters, names: ["i"])
      return .pbkdf2SHA256(iterations: values[0])
    case "scrypt":
      let values = try parseParameters(parameters, names: ["ln", "r", "p"])
      return .scrypt(logN: values[0], r: values[1], p: values[2])
    default:
      throw malformed("unsupported algorithm")
    }
  }

  /// `name=value` pairs in exactly the given order, each a positive decimal without sign or leading zeros.
  private static func parseParameters(_ text: Substring, names: [Substring]) throws -> [Int] {
    let pairs = text.split(separator: ",", omittingEmptySubsequences: false)
    guard pairs.count == names.count else { throw malformed("wrong parameter count") }
    return try zip(pairs, names).map { pair, name in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0] == name, let value = positiveDecimal(parts[1]) else {
        throw malformed("bad parameter")
      }
      return value
    }
  }

  /// At most 9 digits, so the value fits any Int and no parameter is absurd before range checks.
  private static func positiveDecimal(_ text: Substring) -> Int? {
    guard (1...9).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"),
      text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return Int(text)
  }

  private static func malformed(_ reason: String) -> CryptoError {
    CryptoError.malformedInput("password hash string: \(reason)")
  }
}
