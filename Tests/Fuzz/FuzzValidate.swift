import AuthJSON
import AuthValidation

/// The validation rules behind `validate`: a JSON params object's fields, or the raw input as every field, under
/// both purposes and both locales; never a crash, and a normalized value validates as valid again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidate(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  var inputs: [ValidationInput] = []
  if case .object(let object)? = try? JSONParser.parse(bytes, maxDepth: 16) {
    let params = object["params"]?.objectValue ?? object
    func field(_ name: String) -> String? { params[name]?.stringValue }
    inputs.append(
      ValidationInput(
        account: field("account"), username: field("username"), email: field("email"), phone: field("phone"),
        password: field("password")))
  }
  let text = String(decoding: bytes, as: UTF8.self)
  inputs.append(ValidationInput(account: text, username: text, email: text, phone: text, password: text))
  for input in inputs {
    for purpose in [ValidationPurpose.register, .login] {
      for locale in [MessageLocale.en, .zhHans] {
        let report = validator.validate(input, purpose: purpose, locale: locale)
        for field in report.fields where field.valid && field.field != .account {
          guard let value = field.value else { continue }
          let again = validator.check(field.field, value, purpose: purpose, locale: locale)
          if !again.valid || again.value != value { fatalError("\(field.field): a normalized value is not stable") }
        }
      }
    }
  }
  return 0
}

private let validator = Validator()
