extension Duration {
  /// Seconds as a `TimeInterval`, for Foundation.
  var timeInterval: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// Whole milliseconds, for log lines.
  var wholeMilliseconds: Int64 {
    components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
  }
}
