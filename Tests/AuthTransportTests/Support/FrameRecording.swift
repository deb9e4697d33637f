@testable import AuthTransport

/// A framer event reduced to comparable values (bodies copied out of the callback).
enum Event: Equatable, CustomStringConvertible {
  case message(String)
  case oversized
  case framingError
  case framingDetected(FramingMode)

  init(_ event: FrameEvent) {
    switch event {
    case .message(let body): self = .message(String(decoding: body, as: UTF8.self))
    case .oversized: self = .oversized
    case .framingError: self = .framingError
    case .framingDetected(let mode): self = .framingDetected(mode)
    }
  }

  var description: String {
    switch self {
    case .message(let text): return "message(\(text.prefix(60)))"
    case .oversized: return "oversized"
    case .framingError: return "framingError"
    case .framingDetected(let mode): return "framingDetected(\(mode))"
    }
  }
}

/// The three framers behind one face, so every test can feed any of them.
protocol ChunkFramer {
  mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (FrameEvent) -> Void)
  mutating func finishInput(_ emit: (FrameEvent) -> Void)
}

extension LineFramer: ChunkFramer {
  mutating func finishInput(_ emit: (FrameEvent) -> Void) { finish(emit) }
}

extension LSPFramer: ChunkFramer {
  mutating func finishInput(_ emit: (FrameEvent) -> Void) {}
}

extension Framer: ChunkFramer {
  mutating func finishInput(_ emit: (FrameEvent) -> Void) { finish(emit) }
}

extension ChunkFramer {
  /// Feeds `chunks` in order, then ends the input when `finish` is set.
  mutating func events(_ chunks: [[UInt8]], finish: Bool = true) -> [Event] {
    var events: [Event] = []
    for chunk in chunks {
      chunk.withUnsafeBufferPointer { process($0) { events.append(Event($0)) } }
    }
    if finish { finishInput { events.append(Event($0)) } }
    return events
  }

  mutating func events(_ text: String, finish: Bool = true) -> [Event] {
    events([Array(text.utf8)], finish: finish)
  }
}

/// Deterministic chunking, so a failure can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

enum Chunking {
  static func whole(_ bytes: [UInt8]) -> [[UInt8]] { [bytes] }

  static func bytes(_ bytes: [UInt8]) -> [[UInt8]] { bytes.map { [$0] } }

  /// Random chunk sizes from 1 to `maxSize` (including empty reads now and then).
  static func random(_ bytes: [UInt8], seed: UInt64, maxSize: Int = 40) -> [[UInt8]] {
    var rng = SplitMix64(seed: seed)
    var chunks: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let size = Int.random(in: 0...maxSize, using: &rng)
      let end = min(bytes.count, start + size)
      chunks.append(Array(bytes[start..<end]))
      start = end
    }
    return chunks
  }

  /// Every way to cut `bytes` in two.
  static func everySplit(_ bytes: [UInt8]) -> [[[UInt8]]] {
    (0...bytes.count).map { [Array(bytes[..<$0]), Array(bytes[$0...])] }
  }
}
