#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads a password without echoing it, or as one line of piped stdin.
enum PasswordPrompt {
  /// Prompts on stderr and reads with terminal echo off, restoring the terminal afterwards.
  static func read(_ prompt: String) throws -> String {
    Logger.standardError(prompt)
    var saved = termios()
    tcgetattr(STDIN_FILENO, &saved)
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    defer {
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
      Logger.standardError("\n")
    }
    return readLineFromStandardInput()
  }

  /// The first line of stdin without its line ending; nothing else is trimmed (spaces count).
  static func readLineFromStandardInput() -> String {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while Glibc.read(STDIN_FILENO, &byte, 1) == 1, byte != 0x0A { bytes.append(byte) }
    if bytes.last == 0x0D { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }
}

import AuthSupport
