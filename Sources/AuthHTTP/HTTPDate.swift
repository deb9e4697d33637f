/// Dates in HTTP headers, parsed with the lenient algorithm of RFC 6265 §5.1.1. It accepts the three
/// forms RFC 9110 §5.6.7 allows (IMF-fixdate, RFC 850, asctime) and the variants servers really put
/// in cookie `Expires`, and it needs no locale or formatter.
enum HTTPDate {
  /// Unix seconds, or nil when the text holds no complete, valid date.
  static func parse(_ text: String) -> Int64? {
    var time: (Int, Int, Int)?
    var day: Int?
    var month: Int?
    var year: Int?
    for token in tokens(text) {
      if time == nil, let value = parseTime(token) {
        time = value
      } else if day == nil, let value = leadingNumber(token, digits: 1...2) {
        day = value
      } else if month == nil, let value = parseMonth(token) {
        month = value
      } else if year == nil, let value = leadingNumber(token, digits: 2...4) {
        year = value
      }
    }
    guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
    if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
    guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59,
      day <= daysIn(month: month, year: year)
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// Splits at the delimiters of RFC 6265 §5.1.1: every printable ASCII byte except digits,
  /// letters and `:`.
  private static func tokens(_ text: String) -> [Substring] {
    text.split { character in
      guard let ascii = character.asciiValue else { return false }
      let isDelimiter =
        ascii == 0x09 || (0x20...0x2F).contains(ascii) || (0x3B...0x40).contains(ascii)
        || (0x5B...0x60).contains(ascii) || (0x7B...0x7E).contains(ascii)
      return isDelimiter
    }
  }

  /// `h:m:s`, each part one or two digits, anything after the seconds ignored.
  private static func parseTime(_ token: Substring) -> (Int, Int, Int)? {
    let parts = token.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, let hour = leadingNumber(parts[0], digits: 1...2, exact: true),
      let minute = leadingNumber(parts[1], digits: 1...2, exact: true),
      let second = leadingNumber(parts[2], digits: 1...2)
    else { return nil }
    return (hour, minute, second)
  }

  /// A number made of the token's leading digits when their count is in `digits`; with `exact`,
  /// nothing may follow them.
  private static func leadingNumber(_ token: Substring, digits: ClosedRange<Int>, exact: Bool = false) -> Int? {
    let leading = token.prefix { $0.isASCII && $0.isNumber }
    guard digits.contains(leading.count), !exact || leading.count == token.count else { return nil }
    return Int(leading)
  }

  private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

  private static func parseMonth(_ token: Substring) -> Int? {
    guard token.count >= 3 else { return nil }
    return months.firstIndex(of: token.prefix(3).lowercased()).map { $0 + 1 }
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
