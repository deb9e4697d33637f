/// The fields `validate` understands, declared in the canonical order of a report.
package enum FieldName: String, Sendable, CaseIterable {
  case account
  case username
  case email
  case phone
  case password
  /// A one-time code as typed into a verification form: digits, as many as the profile's codes have.
  case code

  /// `allCases` builds a new array on every call; the request path iterates this one instead.
  static let canonicalOrder = allCases
}
