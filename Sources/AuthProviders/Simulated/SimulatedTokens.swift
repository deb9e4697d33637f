import AuthCrypto
import Synchronization

/// Tokens and challenges of the simulated server. In test mode each is derived from its use, the account and a
/// counter, so a transcript gets the same tokens every run; otherwise they are random, as a real server's are.
package final class SimulatedTokens: Sendable {
  private let random: (any RandomSource)?
  private let counter = Mutex(0)

  /// - Parameter random: nil derives every token (test mode).
  package init(random: (any RandomSource)?) { self.random = random }

  /// A new token for `use` (`access`, `refresh`, `challenge`): `sim-<use>-` and 32 base64url characters.
  package func mint(_ use: String, for account: String) throws -> String {
    let bytes: [UInt8]
    if let random {
      bytes = try random.bytes(24)
    } else {
      let count = counter.withLock { value in
        value += 1
        return value
      }
      bytes = Array(SHA256.hash(Array("\(use)\u{0}\(account)\u{0}\(count)".utf8)).prefix(24))
    }
    return "sim-\(use)-" + Base64URL.encode(bytes)
  }

  package func secret(_ use: String, for account: String) throws -> SecretBytes {
    SecretBytes(Array(try mint(use, for: account).utf8))
  }
}
