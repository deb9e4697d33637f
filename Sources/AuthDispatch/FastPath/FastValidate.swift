import AuthConfig
import AuthProtocol
import AuthValidation

/// `validate` answered from a scanned request: the general path's checks in the general path's order
/// (`Params`, the call context, then `ValidateMethod`), each error built by the same factory, and the
/// result written from byte verdicts through the same `ValidationAnswerWriter`.
struct FastValidate: Sendable {
  /// What answering a request came to.
  enum Outcome {
    /// The answer is written (into the `AnswerBuffer`).
    case written
    /// The answer is this error, which the caller encodes.
    case error(RPCError)
    /// Only the general path may answer (an unknown profile, a username pattern, an escaped option, …).
    case unsure
  }

  /// The form fields' keys, in the canonical order of a report (`ParamKey`'s first six), without reading an
  /// array on the hot path.
  struct FieldKeys: Sequence, IteratorProtocol {
    private var position = 0

    mutating func next() -> ParamKey? {
      guard position < 6, let key = ParamKey(rawValue: position) else { return nil }
      position += 1
      return key
    }
  }

  private let validators: ProfileValidators
  /// The validator of requests that name no profile, looked up once. Boxed: a `Validator` is a large struct
  /// of references, and passing one on cost a copy through its value witnesses (about 300 instructions for an
  /// optional one); through the box it is borrowed where it stands.
  private let defaultValidator: ValidatorBox?

  fileprivate final class ValidatorBox: Sendable {
    let validator: Validator
    init(_ validator: Validator) { self.validator = validator }
  }

  init(validators: ProfileValidators) {
    self.validators = validators
    defaultValidator = (try? validators.validator(for: ProfileName.default.rawValue)).map(ValidatorBox.init)
  }

  /// Writes the answer to `request` (result or not) or says what it is.
  func answer(_ request: ScannedRequest, _ scanner: ByteScanner, into out: inout AnswerBuffer) -> Outcome {
    switch request.params {
    case .absent: break  // no members: as an empty object
    case .array: return .error(Params.notAnObject)
    case .object:
      guard !request.members.unsure else { return .unsure }
      guard !request.members.repeatsKey else { return .error(Params.repeatedKey) }
    }
    var profile: String?
    if let value = request.members[.profile] {
      guard case .string(let name) = value else { return .error(Params.notAString("profile", value.typeName)) }
      let text = scanner.text(name)
      guard ProfileName(text) != nil else { return .error(Params.invalidProfile) }
      profile = text
    }
    var locale = MessageLocale.en
    if let value = request.members[.locale] {
      guard case .string(let tag) = value else { return .error(Params.notAString("locale", value.typeName)) }
      locale = MessageLocale(tag: scanner.text(tag))
    }
    if let key = request.members.firstUnknownKey { return .error(Params.unknownKey(scanner.text(key))) }
    var fields = ParamSlots<ScannedString>()
    var anyField = false
    var anyEscaped = false
    for key in FieldKeys() {
      guard let value = request.members[key] else { continue }
      guard case .string(let text) = value else { return .error(Params.notAString(key.text, value.typeName)) }
      fields[key] = text
      anyField = true
      anyEscaped = anyEscaped || text.escaped
    }
    guard anyField else { return .error(ValidateMethod.noFields) }
    var purpose = ValidationPurpose.register
    if let value = request.members[.purpose] {
      guard case .string(let raw) = value else { return .error(Params.notAString("purpose", value.typeName)) }
      guard let known = ValidationPurpose(rawValue: scanner.text(raw)) else { return .error(ValidateMethod.badPurpose) }
      purpose = known
    }
    let checked = Checked(purpose: purpose, locale: locale, id: request.id)
    guard anyEscaped else {
      var texts = ParamSlots<UnsafeBufferPointer<UInt8>>()
      for key in FieldKeys() {
        if let field = fields[key] { texts[key] = UnsafeBufferPointer(rebasing: scanner.bytes[field.range]) }
      }
      return write(checked, texts, profile: profile, scanner, into: &out)
    }
    // Escaped fields are decoded side by side into one buffer, which holds them all (decoding only shrinks).
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scanner.bytes.count) { buffer in
      var texts = ParamSlots<UnsafeBufferPointer<UInt8>>()
      var used = 0
      for key in FieldKeys() {
        guard let field = fields[key] else { continue }
        let count = scanner.decode(field, into: UnsafeMutableBufferPointer(rebasing: buffer[used...]))
        texts[key] = UnsafeBufferPointer(rebasing: buffer[used..<(used + count)])
        used += count
      }
      return write(checked, texts, profile: profile, scanner, into: &out)
    }
  }

  /// `checked` written with the validator of `profile`, or the default one.
  private func write(
    _ checked: Checked, _ texts: ParamSlots<UnsafeBufferPointer<UInt8>>, profile: String?, _ scanner: ByteScanner,
    into out: inout AnswerBuffer
  ) -> Outcome {
    if let profile {
      guard let validator = try? validators.validator(for: profile) else {
        return .unsure  // an unknown profile: a localized configuration error, the general path's
      }
      return checked.write(texts, ValidatorBox(validator), scanner, into: &out)
    }
    guard let defaultValidator else { return .unsure }
    return checked.write(texts, defaultValidator, scanner, into: &out)
  }

  /// A request past every params check: only the rules and the answer are left.
  private struct Checked {
    let purpose: ValidationPurpose
    let locale: MessageLocale
    let id: ScannedValue

    func write(
      _ texts: ParamSlots<UnsafeBufferPointer<UInt8>>, _ box: ValidatorBox, _ scanner: ByteScanner,
      into out: inout AnswerBuffer
    ) -> Outcome {
      var verdicts = ParamSlots<ASCIIFieldVerdict>()
      var valid = true
      for key in FieldKeys() {
        guard let field = key.field, let text = texts[key] else { continue }
        guard let verdict = box.validator.checkASCII(field, text, purpose: purpose) else { return .unsure }
        verdicts[key] = verdict
        valid = valid && verdict.valid
      }
      FastAnswer.writeResultHead(id: id, scanner, into: &out)
      ValidationAnswerWriter.open(valid: valid, into: &out)
      var first = true
      for key in FieldKeys() {
        guard let verdict = verdicts[key], let text = texts[key] else { continue }
        ValidationAnswerWriter.openField(verdict.field, valid: verdict.valid, first: first, into: &out)
        first = false
        if verdict.hasValue {
          ValidationAnswerWriter.writeValue(into: &out, maxCount: ASCIIFieldVerdict.maxValueCount(text.count)) {
            verdict.writeValue(from: text, to: $0)
          }
        }
        if let kind = verdict.kind { ValidationAnswerWriter.writeKind(kind, into: &out) }
        guard !verdict.valid else {
          ValidationAnswerWriter.closeValidField(into: &out)
          continue
        }
        ValidationAnswerWriter.openErrors(into: &out)
        var firstIssue = true
        verdict.codes.forEach { code in
          let message = box.validator.message(code, field: verdict.field, kind: verdict.kind, locale: locale)
          ValidationAnswerWriter.writeIssue(code, message, first: firstIssue, into: &out)
          firstIssue = false
        }
        ValidationAnswerWriter.closeField(into: &out)
      }
      ValidationAnswerWriter.close(into: &out)
      FastAnswer.writeResultTail(into: &out)
      return out.overflowed ? .unsure : .written
    }
  }
}
