/// Checks that a text is well-formed JSON without recursion or building values.
///
/// Used only after the parser hit its depth limit: a line of 100,000 `[` must be answered
/// (as invalid JSON) without blowing the stack, and a deep but valid document must be told
/// apart from a broken one. The nesting is kept as one Bool per open container.
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

    mutating func run() -> Bool {
      var expectingValue = true
      while true {
        skipWhitespace()
        if expectingValue {
          guard index < bytes.count else { return false }
          let byte = bytes[index]
          if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
            let isObject = byte == UInt8(ascii: "{")
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
              index += 1
              expectingValue = false
              continue
            }
            stack.append(isObject)
            if isObject, !memberName() { return false }
            continue
          }
          guard scalar() else { return false }
          expectingValue = false
          continue
        }
        guard let isObject = stack.last else { return index == bytes.count }
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: ","):
          index += 1
          if isObject {
            skipWhitespace()
            if !memberName() { return false }
          }
          expectingValue = true
        case isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"):
          index += 1
          stack.removeLast()
        default:
          return false
        }
      }
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    /// Reads `"key" :` inside an object.
    mutating func memberName() -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
      index += 1
      return true
    }

    /// A string, number or literal, checked by the real parser on its extent so the rules
    /// live in one place.
    mutating func scalar() -> Bool {
      if bytes[index] == UInt8(ascii: "\"") { return string() }
      let start = index
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: break
        default:
          index += 1
          continue
        }
        break
      }
      guard index > start else { return false }
      return (try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index]), maxDepth: 1)) != nil
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
          return (try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<index]), maxDepth: 1)) != nil
        }
        index += 1
      }
      return false
    }
  }
}
