/// What a login form's single `account` field turned out to hold.
package enum AccountKind: String, Sendable, CaseIterable {
  case email
  case phone
  case username
}
