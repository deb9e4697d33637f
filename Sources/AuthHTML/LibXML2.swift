import CLibXML2

/// Process-wide libxml2 set-up.
enum LibXML2 {
  /// libxml2 2.9 asks for `xmlInitParser` once, from one thread, before parsers run on several threads at once:
  /// it builds global tables lazily, and two first parses racing would build them twice. A `static let` runs
  /// it exactly once, thread-safely.
  private static let initialized: Void = xmlInitParser()

  static func initialize() { _ = initialized }
}
