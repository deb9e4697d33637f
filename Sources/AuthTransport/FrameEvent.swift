/// What a framer finds in the input.
package enum FrameEvent {
  /// A complete message body; the buffer is only valid during the callback.
  case message(UnsafeBufferPointer<UInt8>)
  /// A message over the size limit, skipped without being buffered.
  case oversized
  /// Unusable framing (LSP header problems); the framer resynchronises on its own.
  case framingError(String)
  /// Auto-detection decided the framing; comes before the first message, so answers can be
  /// framed the same way.
  case framingDetected(FramingMode)
}
