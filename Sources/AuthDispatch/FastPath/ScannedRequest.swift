/// The members of one request object that the fast path answers from, found in one pass over the bytes.
///
/// nil from `scan` means "not for the fast path": a notification, an unknown or repeated envelope member,
/// a `jsonrpc` other than `"2.0"` written plainly, an id that is not a string, number or null, or params
/// nested deeper than one level of scalars. Those answers are the general path's to give.
struct ScannedRequest {
  var id: ScannedValue = .null
  var method = ScannedString(range: 0..<0, escaped: false)
  var params = ParamsShape.absent
  /// The params object's members (none unless `params` is `.object`), held here rather than in `params`
  /// so that the request is never copied to reach them.
  var members = ScannedMembers()

  /// Scans the object that starts at the scanner's position (after white space) into this empty request, in
  /// place (a request is a few hundred bytes; returning one would copy it); false when it is not for the fast path.
  mutating func scan(_ scanner: inout ByteScanner) -> Bool {
    guard let (id, method, params) = scanEnvelope(&scanner) else { return false }
    self.id = id
    self.method = method
    self.params = params
    return true
  }

  private mutating func scanEnvelope(_ scanner: inout ByteScanner) -> (ScannedValue, ScannedString, ParamsShape)? {
    guard scanner.take(UInt8(ascii: "{")) else { return nil }
    var id: ScannedValue?
    var method: ScannedString?
    var version = false
    var params: ParamsShape?
    repeat {
      // The members as most clients write them, taken whole: a shortcut for the scan below, which reads the
      // same bytes the same way (the literal ends with the value's closing quote).
      if !version, scanner.take(literal: #""jsonrpc":"2.0""#) {
        version = true
        continue
      }
      if method == nil, scanner.take(literal: #""method":"validate""#) {
        method = ScannedString(range: (scanner.index - 9)..<(scanner.index - 1), escaped: false)
        continue
      }
      guard let key = scanner.string(), scanner.take(UInt8(ascii: ":")) else { return nil }
      if scanner.matches(key, "jsonrpc"), !version {
        guard let value = scanner.string(), scanner.matches(value, "2.0") else { return nil }
        version = true
      } else if scanner.matches(key, "id"), id == nil {
        guard let value = scanner.scalar() else { return nil }
        if case .bool = value { return nil }
        id = value
      } else if scanner.matches(key, "method"), method == nil {
        guard let value = scanner.string() else { return nil }
        method = value
      } else if scanner.matches(key, "params"), params == nil {
        guard let shape = ParamsShape.scan(&scanner, into: &members) else { return nil }
        params = shape
      } else {
        return nil
      }
    } while scanner.take(UInt8(ascii: ","))
    guard scanner.take(UInt8(ascii: "}")), version, let id, let method else { return nil }
    return (id, method, params ?? .absent)
  }
}

/// What a request's params are, as far as the fast path reads them.
enum ParamsShape {
  /// No params, or an empty array: some Lua and PHP encoders write an empty table as `[]`, so it means no params.
  case absent
  /// A non-empty array of scalars: `validate` refuses positional params, and the content does not matter.
  case array
  case object

  /// Scans the params value, an object's members into `members`.
  static func scan(_ scanner: inout ByteScanner, into members: inout ScannedMembers) -> ParamsShape? {
    switch scanner.peek() {
    case UInt8(ascii: "{"): return members.scan(&scanner) ? .object : nil
    case UInt8(ascii: "["):
      _ = scanner.take(UInt8(ascii: "["))
      if scanner.take(UInt8(ascii: "]")) { return .absent }
      repeat {
        guard scanner.scalar() != nil else { return nil }
      } while scanner.take(UInt8(ascii: ","))
      return scanner.take(UInt8(ascii: "]")) ? .array : nil
    default: return nil
    }
  }
}

/// The members of a params object whose values are all scalars: the ones every method or `validate`
/// knows, by key, and the others in order, as far as needed to name the first and see a repeat.
struct ScannedMembers {
  private var known = ParamSlots<ScannedValue>()
  /// The first few unknown keys, in order; one unknown key is all `validate` needs, the rest only find repeats.
  private(set) var unknownKeys: (ScannedString?, ScannedString?, ScannedString?, ScannedString?)
  /// A key appears twice.
  private(set) var repeatsKey = false
  /// Something only the general path may judge: a key with escapes (it may spell a known key or repeat one),
  /// or more unknown keys than are kept.
  private(set) var unsure = false

  subscript(key: ParamKey) -> ScannedValue? { known[key] }

  var firstUnknownKey: ScannedString? { unknownKeys.0 }

  /// Scans an object's members into these (empty) ones; false when it is not an object of scalars.
  mutating func scan(_ scanner: inout ByteScanner) -> Bool {
    guard scanner.take(UInt8(ascii: "{")) else { return false }
    if scanner.take(UInt8(ascii: "}")) { return true }
    repeat {
      guard let key = scanner.string(), scanner.take(UInt8(ascii: ":")), let value = scanner.scalar() else {
        return false
      }
      add(key, value, in: scanner)
    } while scanner.take(UInt8(ascii: ","))
    return scanner.take(UInt8(ascii: "}"))
  }

  private mutating func add(_ key: ScannedString, _ value: ScannedValue, in scanner: ByteScanner) {
    guard !key.escaped else {
      unsure = true
      return
    }
    if let known = ParamKey(key, in: scanner) {
      if self.known[known] != nil { repeatsKey = true } else { self.known[known] = value }
      return
    }
    let kept = (unknownKeys.0, unknownKeys.1, unknownKeys.2, unknownKeys.3)
    let isKept = { (candidate: ScannedString?) in candidate.map { scanner.equal($0, key) } ?? false }
    if isKept(kept.0) || isKept(kept.1) || isKept(kept.2) || isKept(kept.3) {
      repeatsKey = true
    } else if unknownKeys.0 == nil {
      unknownKeys.0 = key
    } else if unknownKeys.1 == nil {
      unknownKeys.1 = key
    } else if unknownKeys.2 == nil {
      unknownKeys.2 = key
    } else if unknownKeys.3 == nil {
      unknownKeys.3 = key
    } else {
      unsure = true
    }
  }
}
