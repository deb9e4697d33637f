/// How messages are delimited on stdin and stdout.
package enum FramingMode: String, Sendable, CaseIterable {
  /// One JSON message per line (`\n`, `\r\n` accepted; blank lines ignored).
  case ndjson
  /// LSP-style `Content-Length: N\r\n\r\n` headers before each body, for editor plugins.
  case lsp
  /// NDJSON unless the first bytes are a `Content-Length:` header.
  case auto
}
