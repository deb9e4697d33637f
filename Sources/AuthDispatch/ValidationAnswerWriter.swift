import AuthJSON
import AuthValidation

/// The bytes of a `validate` result, `{valid, fields: {name: {valid, value?, kind?, errors: [{code, message}]}}}`,
/// written piece by piece: `ValidateMethod` writes its reports through it and the fast path its byte verdicts,
/// so the two answers cannot drift apart.
enum ValidationAnswerWriter {
  static func open(valid: Bool, into out: inout some JSONSink) {
    out.append(static: valid ? #"{"valid":true,"fields":{"# : #"{"valid":false,"fields":{"#)
  }

  static func openField(_ field: FieldName, valid: Bool, first: Bool, into out: inout some JSONSink) {
    if !first { out.append(UInt8(ascii: ",")) }
    out.append(static: opening(field, valid: valid))
  }

  static func writeValue(_ value: String, into out: inout some JSONSink) {
    out.append(static: #","value":"#)
    JSONWriter.writeString(value, into: &out)
  }

  /// The fast path's value, whose bytes `write` puts unescaped (at most `maxCount` of them) and says how many:
  /// written in place, and escaped only in the rare case that it holds a quote, a backslash or a control character.
  static func writeValue(into out: inout AnswerBuffer, maxCount: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
    out.append(static: #","value":""#)
    let start = out.count
    out.append(upTo: maxCount, write)
    guard !out.overflowed else { return }
    var unusual: UInt8 = 0
    for byte in out.written[start...] {
      unusual |= (byte < 0x20 ? 1 : 0) | (byte == UInt8(ascii: "\"") ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0)
    }
    guard unusual != 0 else {
      out.append(UInt8(ascii: "\""))
      return
    }
    // Written again, escaped, after the opening quote is dropped (`writeString` writes its own).
    out.truncate(to: start - 1)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxCount) { raw in
      let count = write(raw.baseAddress!)
      JSONWriter.writeString(utf8: UnsafeBufferPointer(rebasing: raw[..<count]), into: &out)
    }
  }

  static func writeKind(_ kind: AccountKind, into out: inout some JSONSink) {
    out.append(static: #","kind":"#)
    JSONWriter.writeString(kind.rawValue, into: &out)
  }

  static func openErrors(into out: inout some JSONSink) {
    out.append(static: #","errors":["#)
  }

  static func writeIssue(_ code: ValidationCode, _ message: String, first: Bool, into out: inout some JSONSink) {
    out.append(static: first ? #"{"code":"# : #",{"code":"#)
    JSONWriter.writeString(code.rawValue, into: &out)
    out.append(static: #","message":"#)
    JSONWriter.writeString(message, into: &out)
    out.append(UInt8(ascii: "}"))
  }

  /// `"errors":[]` and the end of the field, for a valid one.
  static func closeValidField(into out: inout some JSONSink) {
    out.append(static: #","errors":[]}"#)
  }

  static func closeField(into out: inout some JSONSink) {
    out.append(static: "]}")
  }

  static func close(into out: inout some JSONSink) {
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
