/// The JWS `alg` values we sign or verify (RFC 7518 §3.1, RFC 8037 §3.1).
///
/// `none` is deliberately absent: `JWSAlgorithm(rawValue: "none")` is nil, so an unsecured token cannot
/// even name an algorithm here.
package enum JWSAlgorithm: String, Sendable {
  case hs256 = "HS256"
  case edDSA = "EdDSA"
  case rs256 = "RS256"
  case es256 = "ES256"
}
