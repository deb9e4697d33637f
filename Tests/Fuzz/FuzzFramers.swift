import AuthTransport

/// Both framers and auto-detection: input split where the first byte says, never a crash, never a message over
/// the limit, and the same messages whatever the split (the framers keep state across reads).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramers(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size > 0 else { return 0 }
  let chunkSize = Int(data[0] % 32) + 1
  let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
  for mode in [FramingMode.ndjson, .lsp, .auto] {
    let whole = frame(input, mode: mode, chunk: input.count + 1)
    let split = frame(input, mode: mode, chunk: chunkSize)
    if whole != split { fatalError("\(mode) framing depends on how the input is split") }
  }
  return 0
}

private func frame(_ input: UnsafeBufferPointer<UInt8>, mode: FramingMode, chunk: Int) -> [String] {
  let limit = 256
  var framer = Framer(mode: mode, maxMessageBytes: limit)
  var events: [String] = []
  let record: (FrameEvent) -> Void = { event in
    switch event {
    case .message(let body):
      if body.count > limit { fatalError("a message over the limit was delivered") }
      events.append("m" + String(decoding: body, as: UTF8.self))
    case .oversized: events.append("o")
    case .framingError: events.append("e")
    case .framingDetected(let mode): events.append("d\(mode)")
    }
  }
  var start = 0
  while start < input.count {
    let end = min(start + chunk, input.count)
    framer.process(UnsafeBufferPointer(rebasing: input[start..<end]), record)
    start = end
  }
  framer.finish(record)
  return events
}
