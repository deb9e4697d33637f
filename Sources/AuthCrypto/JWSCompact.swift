/// JWS compact serialization (RFC 7515 §7.1) over bytes. Callers build and parse the JSON header and payload
/// themselves; this type only encodes, signs and splits.
package enum JWSCompact {
  /// A token split into its decoded parts. Nothing here is trusted until `verify` returns true.
  package struct Parts: Sendable {
    package let header: [UInt8]
    package let payload: [UInt8]
    /// The ASCII bytes the signature covers: `b64url(header) "." b64url(payload)` exactly as received.
    package let signingInput: [UInt8]
    package let signature: [UInt8]

    package init(header: [UInt8], payload: [UInt8], signingInput: [UInt8], signature: [UInt8]) {
      self.header = header
      self.payload = payload
      self.signingInput = signingInput
      self.signature = signature
    }

    /// `algorithm` is the header's `alg`, which the caller parsed and mapped to a `JWSAlgorithm`.
    package func verify(with key: JWSVerificationKey, algorithm: JWSAlgorithm) -> Bool {
      key.verify(signature: signature, signingInput: signingInput, algorithm: algorithm)
    }
  }

  /// `b64url(header).b64url(payload).b64url(signature)`.
  /// - Throws: `CryptoError` if signing fails (see `JWSSigningKey.sign`).
  package static func sign(header: [UInt8], payload: [UInt8], key: JWSSigningKey) throws -> String {
    let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    let signature = try key.sign(Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// Splits and decodes a compact token, strictly: exactly three segments, each canonical unpadded base64url,
  /// a non-empty header, and a non-empty signature (an unsecured `alg: none` token is refused here already).
  /// The payload may be empty, as RFC 7515 allows.
  /// - Throws: `CryptoError` (`isMalformedInput`); the message never quotes the token.
  package static func split(_ token: String) throws -> Parts {
    try LibCrypto.require()
    let segments = token.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
    guard segments.count == 3 else { throw CryptoError.malformedInput("JWS must have three segments") }
    guard let header = Base64URL.decode(String(segments[0])), !header.isEmpty else {
      throw CryptoError.malformedInput("JWS header is not base64url")
    }
    guard let payload = Base64URL.decode(String(segments[1])) else {
      throw CryptoError.malformedInput("JWS payload is not base64url")
    }
    guard let signature = Base64URL.decode(String(segments[2])), !signature.isEmpty else {
      throw CryptoError.malformedInput("JWS signature is missing or not base64url")
    }
    let signingInput = Array(token.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
    return Parts(header: header, payload: payload, signingInput: signingInput, signature: signature)
  }
}
