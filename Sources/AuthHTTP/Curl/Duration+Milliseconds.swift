extension Duration {
  /// Whole milliseconds, rounded down: for libcurl's `_MS` options and log lines.
  var wholeMilliseconds: Int64 {
    components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
  }
}
