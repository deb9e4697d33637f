/// A profile's one-time code rules (`"codes": {...}`), shared by every provider that sends or checks codes.
package struct CodesConfig: Sendable, Equatable {
  package static let lengthRange = 4...10
  package static let defaultLength = 6
  package static let ttlSecondsRange = 30...3600
  /// Five minutes: long enough to read an SMS, short enough that a code seen over a shoulder soon expires.
  package static let defaultTTLSeconds = 300
  package static let resendCooldownSecondsRange = 0...3600
  /// A minute between sends: users stop getting five SMS for five taps, and a gateway is not hammered.
  package static let defaultResendCooldownSeconds = 60
  package static let maxPerDayRange = 1...1000
  package static let defaultMaxPerDay = 10
  package static let requireAfterFailuresRange = 1...100

  package static let defaults = CodesConfig()

  /// Digits in a code (the `validate` rule for a `code` field follows it).
  package let length: Int
  /// How long a sent code is accepted.
  package let ttlSeconds: Int
  /// Minimum time between two sends for one account and purpose.
  package let resendCooldownSeconds: Int
  /// Sends allowed per account and purpose within any 24 hours.
  package let maxPerDay: Int
  /// After this many consecutive failed password logins, the account's next password login also needs a code
  /// (step-up); nil: never on failures alone.
  package let requireAfterFailures: Int?

  /// - Important: every value must lie in its range; the loader checks them for files.
  package init(
    length: Int = defaultLength, ttlSeconds: Int = defaultTTLSeconds,
    resendCooldownSeconds: Int = defaultResendCooldownSeconds, maxPerDay: Int = defaultMaxPerDay,
    requireAfterFailures: Int? = nil
  ) {
    precondition(Self.lengthRange.contains(length), "codes.length out of range")
    precondition(Self.ttlSecondsRange.contains(ttlSeconds), "codes.ttlSeconds out of range")
    precondition(Self.resendCooldownSecondsRange.contains(resendCooldownSeconds), "codes.resendCooldownSeconds")
    precondition(Self.maxPerDayRange.contains(maxPerDay), "codes.maxPerDay out of range")
    precondition(requireAfterFailures.map(Self.requireAfterFailuresRange.contains) ?? true, "requireAfterFailures")
    self.length = length
    self.ttlSeconds = ttlSeconds
    self.resendCooldownSeconds = resendCooldownSeconds
    self.maxPerDay = maxPerDay
    self.requireAfterFailures = requireAfterFailures
  }
}
