/// Checks `validate` input against a profile's policy. Pure, allocation-light and `Sendable`.
///
/// Build one per policy and keep it: its messages are rendered once per locale, on first need (shared for the
/// default limits, so `Validator()` is cheap too), and `validate` then only scans bytes.
package struct Validator: Sendable {
  package let policy: ValidationPolicy
  let usernameRule: UsernameRule
  let passwordRule: PasswordRule
  private let messages: MessageCatalog

  package init(policy: ValidationPolicy = .standard) {
    self.policy = policy
    usernameRule = UsernameRule(policy: policy)
    passwordRule = PasswordRule(policy: policy)
    messages = MessageCatalog.forPolicy(policy)
  }

  /// Checks every field that was sent and reports them in canonical order.
  package func validate(
    _ input: ValidationInput,
    purpose: ValidationPurpose = .register,
    locale: MessageLocale = .en
  ) -> ValidationReport {
    var fields: [FieldReport] = []
    fields.reserveCapacity(FieldName.canonicalOrder.count)
    for field in FieldName.canonicalOrder {
      if let text = input[field] {
        fields.append(check(field, text, purpose: purpose, locale: locale))
      }
    }
    return ValidationReport(fields: fields)
  }

  /// Checks one field on its own, e.g. for the login handler that has only `account` and `password`.
  package func check(
    _ field: FieldName,
    _ text: String,
    purpose: ValidationPurpose,
    locale: MessageLocale
  ) -> FieldReport {
    var kind: AccountKind?
    let outcome: RuleOutcome
    switch field {
    case .account:
      let trimmed = trimmingWhitespace(text)
      let accountKind = AccountClassifier.classify(trimmed)
      kind = accountKind
      outcome = check(trimmed, as: accountKind, purpose: purpose)
    case .username:
      outcome = usernameRule.check(trimmingWhitespace(text), purpose: purpose)
    case .email:
      outcome = EmailRule.check(trimmingWhitespace(text), purpose: purpose, unicode: policy.emailUnicode)
    case .phone:
      outcome = PhoneRule.check(trimmingWhitespace(text))
    case .code:
      outcome = CodeRule.check(trimmingWhitespace(text), length: policy.codeLength)
    case .password:
      outcome = passwordRule.check(text, purpose: purpose)
    }
    let subject = MessageSubject(field: field, kind: kind)
    return FieldReport(field: field, value: outcome.value, kind: kind, issues: issues(outcome.codes, subject, locale))
  }

  /// The message for `code` on `field` (an account of `kind`), as `check` reports it.
  package func message(
    _ code: ValidationCode, field: FieldName, kind: AccountKind?, locale: MessageLocale
  ) -> String {
    messages.message(code, for: MessageSubject(field: field, kind: kind), locale: locale)
  }

  /// `field` refused because the profile's login API takes only accounts of kind `needed` (its body uses
  /// `{phoneE164}`, say, and the user typed an email): `invalid_format`, worded as for that kind ("Account is not
  /// a valid phone number."), so a form shows what to type instead.
  package func wrongAccountKind(
    _ field: FieldName, value: String, kind: AccountKind?, needed: AccountKind, locale: MessageLocale
  ) -> FieldReport {
    let issues = issues(ValidationCodeSet(.invalidFormat), MessageSubject(account: needed), locale)
    return FieldReport(field: field, value: value, kind: kind, issues: issues)
  }

  private func check(_ trimmed: Substring, as kind: AccountKind, purpose: ValidationPurpose) -> RuleOutcome {
    switch kind {
    case .email: EmailRule.check(trimmed, purpose: purpose, unicode: policy.emailUnicode)
    case .phone: PhoneRule.check(trimmed)
    case .username: usernameRule.check(trimmed, purpose: purpose)
    }
  }

  private func issues(_ codes: ValidationCodeSet, _ subject: MessageSubject, _ locale: MessageLocale) -> [FieldIssue] {
    guard !codes.isEmpty else { return [] }
    return codes.codes.map { FieldIssue(code: $0, message: messages.message($0, for: subject, locale: locale)) }
  }
}
