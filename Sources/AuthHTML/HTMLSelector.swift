/// A tiny CSS selector language for reading values off a page: compound selectors made of a tag name, `#id` and
/// `.class` parts (`dd.username`, `#profile`, `.email`), joined by whitespace for "descendant of"
/// (`#profile .username`).
///
/// Deliberately small: no attributes, pseudo-classes, `>` or `,`. What a config needs to name one element on
/// a profile page fits in this, and a small grammar can be checked completely when the config loads.
package struct HTMLSelector: Sendable, Equatable, CustomStringConvertible {
  /// One compound: every given part must match the same element.
  package struct Compound: Sendable, Equatable {
    package var tag: String?
    package var id: String?
    package var classes: [String] = []

    func matches(_ element: HTMLElement) -> Bool {
      if let tag, element.name != tag { return false }
      if let id, element.attribute("id") != id { return false }
      if !classes.isEmpty {
        let present = element.classes
        guard classes.allSatisfy({ wanted in present.contains { $0 == wanted } }) else { return false }
      }
      return true
    }
  }

  /// Outermost first; the last one is the element selected.
  package let compounds: [Compound]
  package let description: String

  /// Nil unless `text` is one or more compounds separated by spaces, each `tag`, `#id`, `.class` or a
  /// combination (`dd.username`), names made of ASCII letters, digits, `-` and `_`.
  package init?(_ text: String) {
    var compounds: [Compound] = []
    for word in text.split(separator: " ") {
      guard let compound = Self.compound(word) else { return nil }
      compounds.append(compound)
    }
    guard !compounds.isEmpty else { return nil }
    self.compounds = compounds
    description = text.split(separator: " ").joined(separator: " ")
  }

  private static func compound(_ word: Substring) -> Compound? {
    var compound = Compound()
    var rest = word
    let tag = rest.prefix(while: isNameCharacter)
    if !tag.isEmpty {
      compound.tag = tag.lowercased()
      rest = rest.dropFirst(tag.count)
    }
    while let marker = rest.first {
      rest = rest.dropFirst()
      let name = rest.prefix(while: isNameCharacter)
      guard !name.isEmpty else { return nil }
      rest = rest.dropFirst(name.count)
      switch marker {
      case "#":
        guard compound.id == nil else { return nil }
        compound.id = String(name)
      case ".":
        compound.classes.append(String(name))
      default:
        return nil
      }
    }
    return compound.tag == nil && compound.id == nil && compound.classes.isEmpty ? nil : compound
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
  }

  /// Whether `element` is selected: it matches the last compound, and its ancestors match the others in order.
  package func matches(_ element: HTMLElement) -> Bool {
    guard let last = compounds.last, last.matches(element) else { return false }
    var remaining = compounds.dropLast()
    var ancestor = element.parent
    while let wanted = remaining.last {
      guard let current = ancestor else { return false }
      if wanted.matches(current) { remaining.removeLast() }
      ancestor = current.parent
    }
    return true
  }
}
