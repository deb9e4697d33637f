import AuthJSON
import AuthValidation

/// The bytes of a `validate` result, `{valid, fields: {name: {valid, value?, kind?, errors: [{code, message}]}}}`,
/// written piece by piece: `ValidateMethod` writes its reports through it and the fast path its byte verdicts,
/// so the two answers cannot drift apart.
enum ValidationAnswerWriter {
  static func open(valid: Bool, into out: inout [UInt8]) {
    out.append(static: valid ? #"{"valid":true,"fields":{"# : #"{"valid":false,"fields":{"#)
  }

  static func openField(_ field: FieldName, valid: Bool, first: Bool, into out: inout [UInt8]) {
    if !first { out.append(UInt8(ascii: ",")) }
    out.append(static: opening(field, valid: valid))
  }

  static func writeValue(_ value: String, into out: inout [UInt8]) {
    out.append(static: #","value":"#)
    JSONWriter.writeString(value, into: &out)
  }

  /// A value whose UTF-8 bytes `write` appends unescaped: written in place, and escaped only in the rare
  /// case that it holds a quote, a backslash or a control character.
  static func writeValue(into out: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
    out.append(static: #","value":""#)
    let start = out.count
    write(&out)
    let plain = out.withUnsafeBufferPointer { written in
      var unusual: UInt8 = 0
      for byte in written[start...] {
        unusual |= (byte < 0x20 ? 1 : 0) | (byte == UInt8(ascii: "\"") ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0)
      }
      return unusual == 0
    }
    guard !plain else {
      out.append(UInt8(ascii: "\""))
      return
    }
    let raw = Array(out[start...])
    out.removeSubrange((start - 1)...)
    raw.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &out) }
  }

  static func writeKind(_ kind: AccountKind, into out: inout [UInt8]) {
    out.append(static: #","kind":"#)
    JSONWriter.writeString(kind.rawValue, into: &out)
  }

  static func openErrors(into out: inout [UInt8]) {
    out.append(static: #","errors":["#)
  }

  static func writeIssue(_ code: ValidationCode, _ message: String, first: Bool, into out: inout [UInt8]) {
    out.append(static: first ? #"{"code":"# : #",{"code":"#)
    JSONWriter.writeString(code.rawValue, into: &out)
    out.append(static: #","message":"#)
    JSONWriter.writeString(message, into: &out)
    out.append(UInt8(ascii: "}"))
  }

  /// `"errors":[]` and the end of the field, for a valid one.
  static func closeValidField(into out: inout [UInt8]) {
    out.append(static: #","errors":[]}"#)
  }

  static func closeField(into out: inout [UInt8]) {
    out.append(static: "]}")
  }

  static func close(into out: inout [UInt8]) {
    out.append(static: "}}")
  }

  /// A field's name and validity, one literal for the hot path: `"username":{"valid":true`.
  private static func opening(_ field: FieldName, valid: Bool) -> StaticString {
    switch (field, valid) {
    case (.account, true): #""account":{"valid":true"#
    case (.account, false): #""account":{"valid":false"#
    case (.username, true): #""username":{"valid":true"#
    case (.username, false): #""username":{"valid":false"#
    case (.email, true): #""email":{"valid":true"#
    case (.email, false): #""email":{"valid":false"#
    case (.phone, true): #""phone":{"valid":true"#
    case (.phone, false): #""phone":{"valid":false"#
    case (.password, true): #""password":{"valid":true"#
    case (.password, false): #""password":{"valid":false"#
    case (.code, true): #""code":{"valid":true"#
    case (.code, false): #""code":{"valid":false"#
    }
  }
}
