/// Trims leading and trailing white space (the Unicode `White_Space` property).
///
/// Unicode rather than ASCII white space because form input pastes in no-break spaces and, from Chinese
/// input methods, the ideographic space U+3000. Slices by scalar, never by Character, so a combining
/// mark after a leading space is kept rather than swallowed with it.
package func trimmingWhitespace(_ string: String) -> Substring {
  // Fast path: most input starts and ends with a visible ASCII character, so nothing is trimmed.
  let utf8 = string.utf8
  if let first = utf8.first, let last = utf8.last, isVisibleASCII(first), isVisibleASCII(last) {
    return string[...]
  }
  let scalars = string.unicodeScalars
  var start = scalars.startIndex
  var end = scalars.endIndex
  while start < end, scalars[start].properties.isWhitespace {
    scalars.formIndex(after: &start)
  }
  while end > start {
    let before = scalars.index(before: end)
    guard scalars[before].properties.isWhitespace else { break }
    end = before
  }
  return Substring(scalars[start..<end])
}

/// An ASCII byte that is neither white space nor a control character.
private func isVisibleASCII(_ byte: UInt8) -> Bool {
  byte > 0x20 && byte < 0x7F
}
