/// Test vectors are published in hex; this reads them (spaces allowed, as in the RFCs).
func hex(_ text: String) -> [UInt8] {
  let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
  precondition(digits.count % 2 == 0, "odd hex length")
  return stride(from: 0, to: digits.count, by: 2).map { index in
    UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)!
  }
}

func bytes(_ text: String) -> [UInt8] {
  Array(text.utf8)
}
