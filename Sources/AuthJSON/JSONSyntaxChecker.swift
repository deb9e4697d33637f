/// Checks that a text is well-formed JSON without recursion or building values.
///
/// Used only after the parser hit its depth limit: a line of 100,000 `[` must be answered
/// (as invalid JSON) without blowing the stack, and a deep but valid document must be told
/// apart from a broken one. The nesting is kept as a bit per level, so memory stays at
/// one bit per open bracket.
enum JSONSyntaxChecker {
  static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var checker = Checker(bytes: bytes)
    return checker.run()
  }

  private struct Checker {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// One entry per open container: true for an object, false for an array.
    var stack: [Bool] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func run() -> Bool {
      skipWhitespace()
      guard value() else { return false }
      skipWhitespace()
      return index == bytes.count
    }

    /// Reads one value; containers are handled by the loop below, iteratively.
    mutating func value() -> Bool {
      guard scalarOrOpen() else { return false }
      while !stack.isEmpty {
        skipWhitespace()
        guard index < bytes.count else { return false }
        let isObject = stack[stack.count - 1]
        let byte = bytes[index]
        if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          index += 1
          stack.removeLast()
          continue
        }
        guard byte == UInt8(ascii: ",") else { return false }
        index += 1
        skipWhitespace()
        guard memberStart(isObject: isObject), scalarOrOpen() else { return false }
      }
      return true
    }

    /// For an object, reads `"key" :`; nothing for an array.
    mutating func memberStart(isObject: Bool) -> Bool {
      guard isObject else { return true }
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
      index += 1
      skipWhitespace()
      return true
    }

    /// Reads a scalar, or opens a container (and handles an immediately empty one).
    mutating func scalarOrOpen() -> Bool {
      guard index < bytes.count else { return false }
      let byte = bytes[index]
      if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
        let isObject = byte == UInt8(ascii: "{")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          index += 1
          return true
        }
        stack.append(isObject)
        guard memberStart(isObject: isObject) else { return false }
        return scalarOrOpen()
      }
      // Scalars: reuse the real parser on the scalar's extent, so the rules stay in one place.
      let start = index
      if byte == UInt8(ascii: "\"") { return string() }
      while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
      guard index > start else { return false }
      let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
      return (try? JSONParser.parse(slice, maxDepth: 1)) != nil
    }

    mutating func string() -> Bool {
      let start = index
      index += 1
      while index < bytes.count {
        if bytes[index] == UInt8(ascii: "\\") {
          index += 2
          continue
        }
        if bytes[index] == UInt8(ascii: "\"") {
          index += 1
          let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
          return (try? JSONParser.parse(slice, maxDepth: 1)) != nil
        }
        index += 1
      }
      return false
    }
  }
}
