import AuthCrypto
import AuthJSON
import AuthStorage

/// Mints the local provider's tokens: EdDSA-signed JWT access tokens and random refresh tokens
/// whose SHA-256 alone is stored.
struct LocalTokenIssuer: Sendable {
  static let issuer = "auth-sidecar/local"
  private static let signingKeyName = "local.jwt.ed25519"

  let random: any RandomSource
  let accessTokenTTL: Int64
  let refreshTokenTTL: Int64

  struct Minted {
    let session: IssuedSession
    let refreshRecord: RefreshTokenRecord
  }

  /// Mints a token pair for `account`, continuing `familyID` on rotation or starting a family.
  /// - Important: runs inside the caller's write transaction (the signing key may be created).
  func mint(for account: AccountRecord, profile: String, familyID: String?, now: Int64, in tx: WriteTransaction) throws
    -> Minted
  {
    let (key, keyID) = try signingKey(tx)
    let header: JSONValue = .object(["alg": "EdDSA", "typ": "JWT", "kid": .string(keyID)])
    let claims: JSONValue = .object([
      "iss": .string(Self.issuer), "sub": .string(account.id), "aud": .string(profile),
      "iat": .number(JSONNumber(now)), "exp": .number(JSONNumber(now + accessTokenTTL)),
      "jti": .string(Hex.lowercase(try random.bytes(16))), "preferred_username": .string(account.username),
    ])
    let accessToken = try JWSCompact.sign(header: JSONWriter.encode(header), payload: JSONWriter.encode(claims), key: key)
    let refreshToken = SecretBytes(Array(Base64URL.encode(try random.bytes(32)).utf8))
    let record = RefreshTokenRecord(
      tokenHash: RefreshTokenRecord.hash(of: refreshToken), familyID: try familyID ?? Hex.lowercase(random.bytes(16)),
      accountID: account.id, profile: profile, issuedAt: now, expiresAt: now + refreshTokenTTL, usedAt: nil,
      revoked: false)
    let session = IssuedSession(
      user: LocalProvider.userInfo(account), accessToken: SecretBytes(Array(accessToken.utf8)),
      refreshToken: refreshToken, expiresAt: now + accessTokenTTL)
    return Minted(session: session, refreshRecord: record)
  }

  /// The store-wide Ed25519 key, created on first use. Concurrent first uses in several
  /// processes are serialized by the write transaction, so all of them end up with one key.
  private func signingKey(_ tx: WriteTransaction) throws -> (JWSSigningKey, String) {
    let privateKey: SecretBytes
    if let stored = try tx.secret(named: Self.signingKeyName) {
      privateKey = stored
    } else {
      privateKey = try random.secret(32)
      try tx.putSecret(privateKey, named: Self.signingKeyName)
    }
    let key = JWSSigningKey.ed25519(privateKey: privateKey)
    guard case .ed25519(let publicKey) = try key.verificationKey() else {
      preconditionFailure("an Ed25519 signing key always has an Ed25519 verification key")
    }
    return (key, Base64URL.encode(Array(SHA256.hash(publicKey).prefix(12))))
  }

  /// The verification key of the stored signing key, for tests and tools.
  static func verificationKey(in tx: ReadTransaction) throws -> JWSVerificationKey? {
    guard let stored = try tx.secret(named: signingKeyName) else { return nil }
    return try JWSSigningKey.ed25519(privateKey: stored).verificationKey()
  }
}

/// Lower-case hex, for ids that must be printable.
enum Hex {
  static func lowercase(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
