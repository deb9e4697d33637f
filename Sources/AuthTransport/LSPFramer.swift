/// Splits LSP-style input: `Content-Length: N` (plus optional other headers), a blank line,
/// then exactly N bytes of body.
///
/// A body over the limit is reported when its header is read and then skipped byte by byte.
/// A header block without a usable Content-Length is reported and dropped; the framer reads
/// the next header block after it. The bad block's body, if the sender wrote one, runs into
/// that next block, so until a good header is read the last `Content-Length:` anywhere in a
/// block counts (resynchronising), instead of every later message being lost too.
///
/// A header whose blank line is missing makes its body part of the block: a line that is not
/// `name: value`, with the next message's header after it. Its own Content-Length cannot be
/// trusted (it would cut the next message's body), so the `Content-Length:` after that line
/// counts: at most the broken message is lost.
package struct LSPFramer {
  package let maxMessageBytes: Int
  private static let maxHeaderBytes = 8_192

  private enum State {
    case header
    case body(remaining: Int)
    case skip(remaining: Int)
  }

  private var state = State.header
  private var header: [UInt8] = []
  private var body: [UInt8] = []
  private var resynchronizing = false

  package init(maxMessageBytes: Int) { self.maxMessageBytes = maxMessageBytes }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void) {
    var index = 0
    while index < chunk.count {
      switch state {
      case .header:
        header.append(chunk[index])
        index += 1
        if header.count >= 4, header.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) {
          startBody(emit)
        } else if header.count == 1, header[0] == 0x0A || header[0] == 0x0D {
          header.removeAll()  // stray line breaks between messages
        } else if header.count > Self.maxHeaderBytes {
          header.removeAll()
          emit(.framingError("LSP header block too long"))
        }
      case .body(let remaining):
        let take = min(remaining, chunk.count - index)
        if body.isEmpty, take == remaining {
          emit(.message(UnsafeBufferPointer(rebasing: chunk[index..<index + take])))
        } else {
          body.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<index + take]))
          if take == remaining {
            body.withUnsafeBufferPointer { emit(.message($0)) }
            body.removeAll(keepingCapacity: body.capacity <= 65_536)
          }
        }
        index += take
        state = take == remaining ? .header : .body(remaining: remaining - take)
      case .skip(let remaining):
        let take = min(remaining, chunk.count - index)
        index += take
        state = take == remaining ? .header : .skip(remaining: remaining - take)
      }
    }
  }

  private mutating func startBody(_ emit: (FrameEvent) -> Void) {
    var length: Int?
    if let broken = Self.firstNonHeaderLine(in: header) {
      if let start = Self.lastContentLengthName(in: header), start >= broken || resynchronizing {
        if !resynchronizing { emit(.framingError("LSP header without the blank line before its body")) }
        length = Self.contentLength(in: Array(header[start...]))
      }
    } else {
      length = Self.contentLength(in: header)
      if length == nil, resynchronizing, let start = Self.lastContentLengthName(in: header) {
        length = Self.contentLength(in: Array(header[start...]))
      }
    }
    header.removeAll()
    guard let length else {
      resynchronizing = true
      emit(.framingError("LSP header without a valid Content-Length"))
      return
    }
    resynchronizing = false
    if length > maxMessageBytes {
      emit(.oversized)
      state = .skip(remaining: length)
    } else if length == 0 {
      emit(.message(UnsafeBufferPointer(start: nil, count: 0)))
    } else {
      state = .body(remaining: length)
    }
  }

  /// Where the last `content-length:` (any case) starts in a header block, wherever it is.
  static func lastContentLengthName(in header: [UInt8]) -> Int? {
    let name = Array("content-length:".utf8)
    guard header.count >= name.count else { return nil }
    for start in stride(from: header.count - name.count, through: 0, by: -1) {
      var matches = true
      for offset in 0..<name.count {
        let byte = header[start + offset]
        if (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) != name[offset] {
          matches = false
          break
        }
      }
      if matches { return start }
    }
    return nil
  }

  /// Where the first line that is not a `name: value` header line starts (a body that ran into
  /// the block); nil when every line is one. Names are HTTP tokens (RFC 9110 §5.6.2).
  static func firstNonHeaderLine(in header: [UInt8]) -> Int? {
    var lineStart = 0
    while lineStart < header.count {
      var end = lineStart
      while end < header.count, header[end] != 0x0D, header[end] != 0x0A { end += 1 }
      if end > lineStart {
        guard let colon = header[lineStart..<end].firstIndex(of: UInt8(ascii: ":")), colon > lineStart,
          header[lineStart..<colon].allSatisfy(isTokenByte)
        else { return lineStart }
      }
      lineStart = end + 1
    }
    return nil
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "A")...UInt8(ascii: "Z"):
      return true
    default:
      return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// The Content-Length value of a header block, matched case-insensitively as HTTP does.
  static func contentLength(in header: [UInt8]) -> Int? {
    let text = String(decoding: header, as: UTF8.self)
    for line in text.split(separator: "\r\n") {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon].lowercased()
      guard name == "content-length" else { continue }
      let value = line[line.index(after: colon)...].trimmingSpaces
      guard !value.isEmpty, value.count <= 12, value.allSatisfy(\.isASCIIDigit) else { return nil }
      return Int(value)
    }
    return nil
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var s = self
    while s.first == " " || s.first == "\t" { s = s.dropFirst() }
    while s.last == " " || s.last == "\t" { s = s.dropLast() }
    return s
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
