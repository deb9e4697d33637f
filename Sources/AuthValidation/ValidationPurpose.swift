/// Which policy `validate` applies.
///
/// `register` runs the full policy. `login` checks only presence, length caps and format, so that an
/// account created under an older or looser policy can still sign in.
package enum ValidationPurpose: String, Sendable, CaseIterable {
  case register
  case login
}
