/// One element of an `HTMLDocument`: a position in its node array. Cheap to copy (the document's arrays are
/// shared, not copied).
package struct HTMLElement: Sendable {
  package let document: HTMLDocument
  package let index: Int

  private var node: HTMLDocument.Node { document.nodes[index] }

  /// Lower-case tag name.
  package var name: String { node.name }

  /// The value of attribute `name` (lower-case), or nil when absent.
  package func attribute(_ name: String) -> String? {
    node.attributes.first { $0.name == name }?.value
  }

  package func hasAttribute(_ name: String) -> Bool { attribute(name) != nil }

  /// The `class` attribute split at ASCII whitespace.
  package var classes: [Substring] {
    (attribute("class") ?? "").split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
  }

  package var parent: HTMLElement? {
    node.parent.map { HTMLElement(document: document, index: $0) }
  }

  /// Every element inside this one, in document order.
  package var descendants: [HTMLElement] {
    (index + 1..<node.end).filter { document.nodes[$0].kind == .element }.map {
      HTMLElement(document: document, index: $0)
    }
  }

  /// Whether `other` is inside this element.
  package func contains(_ other: HTMLElement) -> Bool { other.index > index && other.index < node.end }

  /// The text of every text node inside, in order, as a browser's `textContent`.
  package var textContent: String {
    var text = ""
    for position in index + 1..<node.end where document.nodes[position].kind == .text {
      text += document.nodes[position].text
    }
    return text
  }

  /// `textContent` with leading and trailing whitespace removed and inner runs collapsed to one space, as the
  /// text reads on screen.
  package var visibleText: String {
    textContent.split { $0.isWhitespace }.joined(separator: " ")
  }

  /// Elements inside this one matching `selector`, in document order.
  package func select(_ selector: HTMLSelector) -> [HTMLElement] {
    descendants.filter { selector.matches($0) }
  }
}
