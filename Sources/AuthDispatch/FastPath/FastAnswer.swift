import AuthJSON
import AuthProtocol

/// The envelope of a fast-path answer, written as `OutgoingMessage.encode` writes it.
enum FastAnswer {
  static func writeResultHead(id: ScannedValue, _ scanner: ByteScanner, into out: inout some JSONSink) {
    out.append(static: OutgoingMessage.envelopeHead)
    switch id {
    case .number(let lexeme): out.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.bytes[lexeme.range]))
    case .string(let text): scanner.withText(text) { JSONWriter.writeString(utf8: $0, into: &out) }
    case .null, .bool: out.append(static: "null")
    }
    out.append(static: OutgoingMessage.resultKey)
  }

  static func writeResultTail(into out: inout some JSONSink) {
    out.append(UInt8(ascii: "}"))
  }

  /// An error answer, through the general encoder: errors are rarer, and their wording lives in one place.
  static func writeError(_ error: RPCError, id: ScannedValue, _ scanner: ByteScanner, into out: inout [UInt8]) {
    OutgoingMessage.error(id: requestID(id, scanner), error).encode(into: &out)
  }

  private static func requestID(_ id: ScannedValue, _ scanner: ByteScanner) -> RequestID {
    switch id {
    case .number(let lexeme): .number(scanner.text(lexeme))
    case .string(let text): .string(scanner.text(text))
    case .null, .bool: .null
    }
  }
}
