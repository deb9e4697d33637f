import AuthJSON

/// JSONParser: any bytes give a value or a JSONParseError, never a crash; a parsed value written
/// compactly parses again to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let value = try? JSONParser.parse(bytes, maxDepth: 64) else { return 0 }
  let written = JSONWriter.encode(value)
  guard let again = try? JSONParser.parse(written, maxDepth: 64), again == value else {
    fatalError("a parsed value does not survive write and parse")
  }
  return 0
}
