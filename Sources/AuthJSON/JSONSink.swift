/// Where JSON text is written: the growing output array, or the fixed buffer the request fast path writes an
/// answer into before appending it once. `JSONWriter.writeString` and the `validate` answer writer are generic
/// over it, so both destinations get the same bytes from the same code.
package protocol JSONSink {
  mutating func append(_ byte: UInt8)
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
  /// Appends a literal's bytes. A requirement, not only an extension method, so that a sink's own version is
  /// what specialized callers reach.
  mutating func append(static literal: StaticString)
}

extension JSONSink {
  /// Appends a literal's bytes without going through the generic `UTF8View` sequence path,
  /// which costs several times more on the answer-writing hot path.
  @inlinable
  package mutating func append(static literal: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }
}

extension Array: JSONSink where Element == UInt8 {}
