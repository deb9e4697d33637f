import AuthStorage
import AuthSupport

/// A code issued in the store and not yet delivered: what `deliver` needs to send it, or to take the send back.
struct PendingCode: Sendable {
  let code: String
  /// nil: nowhere to send it (an identifier with no matching contact); the answer looks the same.
  let to: String?
  let channel: CodeChannel
  let purpose: CodePurpose
  let expiresAt: Int64
  let sentAt: Int64
  let resendAt: Int64
  let slot: [UInt8]
  let sendSlot: [UInt8]
  /// What `test.lastCode {account}` may name it by.
  let names: [String]

  /// The masked destination the host shows; for no destination, a mask of the same shape as a real one would be.
  func sentTo(typed: String) -> String { ContactMask.mask(to ?? typed) }
}

extension LocalProvider {
  /// Hands the code to the delivery; a failure undoes the send (the code and its cooldown entry), so the user may
  /// ask again at once, and answers `deliveryFailed`.
  func deliver(_ pending: PendingCode, via delivery: any CodeDelivery) async throws {
    codeLog?.record(pending.code, keys: pending.names + (pending.to.map { [$0] } ?? []))
    guard let to = pending.to else { return }
    let message = CodeMessage(
      to: to, channel: pending.channel, code: pending.code, purpose: pending.purpose, expiresAt: pending.expiresAt)
    do {
      try await delivery.deliver(message)
    } catch {
      try await Blocking.run { [stores] in
        try stores.get().write { tx in
          try tx.deleteCode(slot: pending.slot)
          try tx.forgetCodeSend(slot: pending.sendSlot, at: pending.sentAt)
        }
      }
      throw error
    }
  }

  /// Where a code for `account` goes on `channel`: the account's own contact when it exists (whatever identifier
  /// was typed), else the typed identifier when it is that kind of contact (a registration, or an identifier no
  /// account has: it gets a code like any other, so the answer cannot tell), else nowhere.
  static func destination(_ channel: CodeChannel, _ account: LoginAccount, _ record: AccountRecord?) -> String? {
    if let record { return channel == .sms ? record.phone : record.email }
    switch (channel, account.kind) {
    case (.sms, .phone), (.email, .email): return account.text
    default: return nil
    }
  }

  /// The default channel follows the identifier typed: a phone gets an SMS, an email an email; a username, the
  /// account's phone when it has one.
  static func defaultChannel(_ account: LoginAccount, _ record: AccountRecord?) -> CodeChannel {
    switch account.kind {
    case .phone: .sms
    case .email: .email
    case .username: record?.phone != nil && record?.email == nil ? .sms : .email
    }
  }

  /// Codes for an account are kept under its id, so every identifier of it reaches the same code and cooldown;
  /// an identifier no account has under the identifier itself.
  static func codeSubject(_ account: LoginAccount, _ record: AccountRecord?) -> String {
    record.map { "account:\($0.id)" } ?? "\(account.kind.rawValue):\(account.text.lowercased())"
  }
}
