import AuthJSON
import AuthProtocol

/// MessageDecoder: any bytes classify into messages or one rejection, never a crash; every message of a batch is
/// classified (one answer slot each), and an answer to each encodes as valid JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let decoder = MessageDecoder(maxDepth: 64, maxBatchSize: 100)
  let messages: [IncomingMessage]
  switch decoder.decode(UnsafeBufferPointer(start: data, count: size)) {
  case .rejected(let error):
    check(.error(id: .null, error))
    return 0
  case .single(let message): messages = [message]
  case .batch(let batch):
    if batch.isEmpty || batch.count > 100 { fatalError("a batch outside 1...100 was accepted") }
    messages = batch
  }
  for message in messages {
    switch message {
    case .invalid(let id, let error): check(.error(id: id, error))
    case .request(let request): check(.result(id: request.id, JSONValue.string(request.method)))
    case .notification: break
    }
  }
  return 0
}

private func check(_ answer: OutgoingMessage) {
  if (try? JSONParser.parse(answer.encoded, maxDepth: 64)) == nil { fatalError("an answer is not valid JSON") }
}
