#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthProtocol

/// Answers the lines it fully understands straight from their bytes, and declines every other line, which
/// then takes the general path (JSON tree, classification, dispatch) as if the fast path did not exist.
///
/// It understands: one request object or a batch of them, ASCII only, each with `"jsonrpc":"2.0"`, an id
/// and a method, and params of scalars only, in a line that spells `"validate` somewhere. For `validate` it
/// gives the result and every params error; for a method nobody registered (in such a line: a batch with a
/// `validate`, a mistyped `validate…`), `-32601`. The rule: whatever it declines, or cannot be sure of, the
/// general path answers, so an answer given here is always the one the general path would give (the
/// differential test in AuthDispatchTests holds them byte-identical).
final class FastPath: Sendable {
  private let validate: FastValidate
  private let registry: MethodRegistry
  private let limits: Server.Limits

  init(validators: ProfileValidators, registry: MethodRegistry, limits: Server.Limits) {
    validate = FastValidate(validators: validators)
    self.registry = registry
    self.limits = limits
  }

  /// Appends the answer to `line` and returns true, or returns false when the general path must answer
  /// (what was appended is then dropped by the caller).
  func answer(_ line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
    guard line.count <= Int32.max else { return false }  // `ScannedString`'s offsets are 32-bit
    // A line that does not spell `"validate` anywhere is another method's, nearly always a registered one that the
    // general path runs anyway: scanning it whole first was wasted code on every login and getUser. (A method
    // nobody registered is then answered by the general path, with the same error; a mistyped `validate…` is
    // still answered here.)
    guard Self.mentionsValidate(line) else { return false }
    var scanner = ByteScanner(line)
    switch scanner.peek() {
    case UInt8(ascii: "{"):
      // The params object is the second level of nesting.
      var request = ScannedRequest()
      guard limits.maxDepth >= 2, request.scan(&scanner), scanner.peek() == nil else { return false }
      return answer(request, scanner, into: &out)
    case UInt8(ascii: "["):
      return answerBatch(&scanner, into: &out)
    default:
      return false
    }
  }

  /// A batch whose every element is answered here, written as one array like `BatchCollector`'s; one
  /// element left to the general path sends the whole batch there.
  private func answerBatch(_ scanner: inout ByteScanner, into out: inout [UInt8]) -> Bool {
    guard limits.maxDepth >= 3, scanner.take(UInt8(ascii: "[")), scanner.peek() != UInt8(ascii: "]") else {
      return false
    }
    let start = out.count
    out.append(UInt8(ascii: "["))
    var count = 0
    repeat {
      var request = ScannedRequest()
      guard count < limits.maxBatchSize, request.scan(&scanner) else { return false }
      if count > 0 { out.append(UInt8(ascii: ",")) }
      guard answer(request, scanner, into: &out) else { return false }
      count += 1
    } while scanner.take(UInt8(ascii: ","))
    guard scanner.take(UInt8(ascii: "]")), scanner.peek() == nil else { return false }
    out.append(UInt8(ascii: "]"))
    // `BatchCollector` counts at most 40 bytes of envelope per answer more than the answer itself; below
    // this sum its bound is never reached, and above it the general path applies the bound.
    return out.count - start + 40 * count < limits.maxBatchAnswerBytes
  }

  private func answer(_ request: ScannedRequest, _ scanner: ByteScanner, into out: inout [UInt8]) -> Bool {
    let outcome: FastValidate.Outcome
    if scanner.matches(request.method, "validate") {
      // Written on the stack and appended once; an answer too long for the buffer is the general path's.
      outcome = AnswerBuffer.withBuffer { buffer in
        let outcome = validate.answer(request, scanner, into: &buffer)
        if case .written = outcome { out.append(contentsOf: buffer.written) }
        return outcome
      }
    } else {
      outcome = unknownMethod(request.method, scanner)
    }
    switch outcome {
    case .written: return true
    case .unsure: return false
    case .error(let error):
      FastAnswer.writeError(error, id: request.id, scanner, into: &out)
      return true
    }
  }

  /// Whether `"validate`, opening quote included, occurs in `line`. Found from its `v` with `memchr`: the envelope
  /// of a JSON-RPC line has none before the method's name, so a `validate` line costs a few dozen instructions
  /// and any other line one vectorised scan.
  private static func mentionsValidate(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    let name: StaticString = "validate"
    let length = name.utf8CodeUnitCount
    guard let base = line.baseAddress, line.count > length else { return false }
    var start = 1
    while start + length <= line.count,
      let found = memchr(base + start, Int32(UInt8(ascii: "v")), line.count - length - start + 1)
    {
      let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      if base[index - 1] == UInt8(ascii: "\""), memcmp(base + index, name.utf8Start, length) == 0 { return true }
      start = index + 1
    }
    return false
  }

  /// `-32601` for a method nobody registered; any registered method is the general path's to run.
  private func unknownMethod(_ method: ScannedString, _ scanner: ByteScanner) -> FastValidate.Outcome {
    let name = scanner.text(method)
    guard name != CancelRequest.name, registry[name] == nil else { return .unsure }
    return .error(.methodNotFound(name))
  }
}
