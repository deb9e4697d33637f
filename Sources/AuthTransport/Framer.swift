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
    // Input ended on a prefix of "Content-Length:" (e.g. "Cont"): it was a line after all.
    if case .undecided = active, !sniffed.isEmpty { replayHeld(lsp: false, emit) }
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
    guard let first = sniffed.firstIndex(where: { !Self.isBlank($0) }) else {
      sniffed.removeAll(keepingCapacity: true)  // blank input means nothing to either framing
      return
    }
    let candidate = sniffed[first...].prefix(Self.lspPrefix.count)
    let matches = zip(candidate, Self.lspPrefix).allSatisfy { byte, expected in
      (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == expected
    }
    if matches, candidate.count < Self.lspPrefix.count { return }  // undecided: wait for more
    replayHeld(lsp: matches, emit)
  }

  /// Chooses the framer, announces it, and replays the held input from its first non-blank
  /// byte: leading blank lines mean nothing to either framing, whichever reads they came in
  /// (the LSP framer would take a leading space for part of a header).
  private mutating func replayHeld(lsp: Bool, _ emit: (FrameEvent) -> Void) {
    decide(lsp: lsp)
    emit(.framingDetected(lsp ? .lsp : .ndjson))
    let held = Array(sniffed.drop(while: Self.isBlank))
    sniffed = []
    held.withUnsafeBufferPointer { process($0, emit) }
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  private mutating func decide(lsp: Bool) {
    active = lsp ? .lsp(LSPFramer(maxMessageBytes: maxMessageBytes)) : .lines(LineFramer(maxMessageBytes: maxMessageBytes))
  }
}
