import AuthJSON

/// Turns the file's bytes into JSON, with errors a person editing the file can act on.
enum ConfigDocument {
  /// - Throws: `ConfigError` of kind `invalidJSON`, with a line and column rather than only a byte offset.
  static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> JSONValue {
    // Both would otherwise read "unexpected ... at line 1, column 1", which hides the real cause.
    if bytes.allSatisfy(isWhitespace) {
      throw invalid(file, "is empty; a config needs at least {\"profiles\": {\"default\": {\"provider\": \"local\"}}}")
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      throw invalid(file, "starts with a byte order mark; save it as UTF-8 without one")
    }
    do {
      return try JSONParser.parse(bytes)
    } catch {
      let position = TextPosition(of: error.offset, in: bytes)
      switch error.reason {
      case .syntax:
        throw invalid(file, "is not valid JSON: \(error.detail) at \(position)")
      case .tooDeep:
        throw invalid(file, "is nested deeper than \(JSONParser.defaultMaxDepth) levels at \(position)")
      }
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func invalid(_ file: String, _ message: String) -> ConfigError {
    ConfigError(kind: .invalidJSON, file: file, message: message)
  }
}

/// A 1-based line and column, counting columns in Unicode scalars as editors do.
struct TextPosition: Sendable, Equatable, CustomStringConvertible {
  let line: Int
  let column: Int

  init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  init(of offset: Int, in bytes: [UInt8]) {
    var line = 1
    var column = 1
    for byte in bytes.prefix(max(0, offset)) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        // Continuation bytes (10xxxxxx) belong to the scalar already counted.
        column += 1
      }
    }
    self.init(line: line, column: column)
  }

  var description: String { "line \(line), column \(column)" }
}
