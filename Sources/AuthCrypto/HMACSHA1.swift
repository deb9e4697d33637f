/// HMAC-SHA-1 (RFC 2104), for TOTP only: RFC 6238's default, and what every authenticator app computes. SHA-1's
/// collision weakness does not reach HMAC's use as a keyed pseudo-random function.
package enum HMACSHA1 {
  package static let byteCount = 20

  package static func authenticate(_ message: [UInt8], key: SecretBytes) -> [UInt8] {
    message.withUnsafeBytes { message in
      key.withUnsafeBytes { key in HMACDigest.authenticate(message, key: key, digest: "SHA1", byteCount: byteCount) }
    }
  }
}

/// RFC 6238 time-based one-time passwords: HMAC-SHA-1 over the 30-second step count, dynamically truncated
/// (RFC 4226 §5.3).
package enum TOTP {
  package static let stepSeconds: Int64 = 30

  package static func step(at unixSeconds: Int64) -> Int64 { unixSeconds / stepSeconds }

  /// The code of `step`, `digits` long (6 for authenticator apps; RFC 6238's test vectors use 8).
  package static func code(secret: SecretBytes, step: Int64, digits: Int = 6) -> String {
    let counter = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(step) >> (56 - 8 * $0)) }
    let mac = HMACSHA1.authenticate(counter, key: secret)
    let offset = Int(mac[19] & 0x0F)
    let binary =
      (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
      | UInt32(mac[offset + 3])
    var modulus: UInt32 = 1
    for _ in 0..<digits { modulus *= 10 }
    let value = String(binary % modulus)
    return String(repeating: "0", count: digits - value.count) + value
  }
}

/// RFC 4648 base32 without padding, as `otpauth://` URIs carry TOTP secrets.
package enum Base32 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  package static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
        bits -= 5
      }
    }
    if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
    return String(decoding: out, as: UTF8.self)
  }
}
