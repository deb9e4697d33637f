/// The framer for a `FramingMode`, deciding `auto` from the first non-blank bytes.
package struct Framer {
  private enum Active {
    case undecided
    case lines(LineFramer)
    case lsp(LSPFramer)
  }

  private var active: Active
  private let maxMessageBytes: Int
  private var sniffed: [UInt8] = []
  private static let lspPrefix = Array("content-length:".utf8)

  package init(mode: FramingMode, maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
    switch mode {
    case .ndjson: active = .lines(LineFramer(maxMessageBytes: maxMessageBytes))
    case .lsp: active = .lsp(LSPFramer(maxMessageBytes: maxMessageBytes))
    case .auto: active = .undecided
    }
  }

  /// The mode in use, once known; answers are framed the same way.
  package var resolvedMode: FramingMode? {
    switch active {
    case .undecided: return nil
    case .lines: return .ndjson
    case .lsp: return .lsp
    }
  }

  package mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void) {
    switch active {
    case .lines(var framer):
      active = .undecided  // drop the reference so `framer` is uniquely owned while it mutates
      framer.process(chunk, emit)
      active = .lines(framer)
    case .lsp(var framer):
      active = .undecided
      framer.process(chunk, emit)
      active = .lsp(framer)
    case .undecided:
      sniff(chunk, emit)
    }
  }

  package mutating func finish(_ emit: (FrameEvent) -> Void) {
    if case .undecided = active, !sniffed.isEmpty { decide(lsp: false) }
    if case .lines(var framer) = active {
      framer.finish(emit)
      active = .lines(framer)
    }
  }

  /// Holds input until its first non-blank bytes match or rule out a `Content-Length:`
  /// header, then replays everything held through the chosen framer. Only the first read or
  /// two are ever held: the decision needs at most 15 bytes.
  private mutating func sniff(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void) {
    sniffed.append(contentsOf: chunk)
    let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    guard let first = sniffed.firstIndex(where: { !isBlank($0) }) else {
      sniffed.removeAll(keepingCapacity: true)  // blank input means nothing to either framing
      return
    }
    let candidate = sniffed[first...].prefix(Self.lspPrefix.count)
    let matches = zip(candidate, Self.lspPrefix).allSatisfy { byte, expected in
      (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == expected
    }
    if matches, candidate.count < Self.lspPrefix.count { return }  // undecided: wait for more
    decide(lsp: matches)
    emit(.framingDetected(matches ? .lsp : .ndjson))
    let held = sniffed
    sniffed = []
    held.withUnsafeBufferPointer { process($0, emit) }
  }

  private mutating func decide(lsp: Bool) {
    active = lsp ? .lsp(LSPFramer(maxMessageBytes: maxMessageBytes)) : .lines(LineFramer(maxMessageBytes: maxMessageBytes))
  }
}
