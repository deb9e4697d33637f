internal import CLibXML2

/// An HTML page parsed by libxml2's HTML parser and copied into Swift memory as a flat, read-only tree.
///
/// The copy is the point: the `xmlDoc` is freed before `init` returns, so no C pointer outlives the parse and the
/// value is `Sendable`. Nodes sit in document order (pre-order) with their subtree's end index, so walking,
/// descendant tests and text content are loops over an array — no recursion, which a hostile page nested
/// 100,000 deep would turn into a stack overflow.
///
/// Parsing never fails on content: libxml2 recovers from any tag soup the way browsers roughly do, and bytes it
/// cannot use give an empty document. It fails only when libxml2 itself cannot be loaded (see `LibXML2`). It
/// never touches the network or reads entities from outside (`HTML_PARSE_NONET`; the HTML parser loads no
/// external DTD), and its error reports are off, so nothing reaches stderr.
package struct HTMLDocument: Sendable {
  package struct Node: Sendable {
    package enum Kind: Sendable { case element, text }

    package let kind: Kind
    /// Lower-case tag name; empty for text.
    package let name: String
    /// In source order, names lower-case, entities decoded.
    package let attributes: [HTMLAttribute]
    /// The text of a text node, entities decoded; empty for an element.
    package let text: String
    package let parent: Int?
    /// One past the last node of this node's subtree.
    package fileprivate(set) var end: Int
  }

  package let nodes: [Node]

  /// - Parameter charset: the charset the server declared (`Content-Type`), if any. Without it libxml2 reads the
  ///   page's `<meta charset>`; a page that declares nothing is taken as UTF-8 when it is valid UTF-8 (HTML's own
  ///   default, windows-1252, would garble every non-ASCII name).
  /// - Throws: `HTMLParserUnavailable` when libxml2 cannot be loaded.
  package init(parsing bytes: [UInt8], charset: String? = nil) throws(HTMLParserUnavailable) {
    let library = try LibXML2.shared.get()
    guard !bytes.isEmpty, bytes.count < Int(Int32.max) else {
      nodes = []
      return
    }
    let encoding = charset ?? (Self.declaresCharset(bytes) || !Self.isUTF8(bytes) ? nil : "UTF-8")
    let options = Int32(
      HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_NONET.rawValue)
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
        library.readMemory(pointer, Int32(buffer.count), nil, encoding, options)
      }
    }
    guard let document else {
      nodes = []
      return
    }
    defer { library.freeDoc(document) }
    nodes = Self.copy(document)
  }

  /// Pre-order copy of the tree with an explicit stack; subtree ends are filled in afterwards, children first.
  private static func copy(_ document: htmlDocPtr) -> [Node] {
    var nodes: [Node] = []
    var stack: [(xmlNodePtr, parent: Int?)] = []
    var child = document.pointee.children
    var firstLevel: [xmlNodePtr] = []
    while let node = child {
      firstLevel.append(node)
      child = node.pointee.next
    }
    for node in firstLevel.reversed() { stack.append((node, nil)) }
    while let (node, parent) = stack.popLast() {
      switch node.pointee.type {
      case XML_ELEMENT_NODE:
        let index = nodes.count
        nodes.append(
          Node(
            kind: .element, name: string(node.pointee.name).lowercased(), attributes: attributes(node), text: "",
            parent: parent, end: index + 1))
        var children: [xmlNodePtr] = []
        var next = node.pointee.children
        while let current = next {
          children.append(current)
          next = current.pointee.next
        }
        for current in children.reversed() { stack.append((current, index)) }
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        let index = nodes.count
        nodes.append(
          Node(
            kind: .text, name: "", attributes: [], text: string(node.pointee.content), parent: parent, end: index + 1))
      default:
        // Comments, processing instructions, the DTD: nothing a form or a user field is made of.
        break
      }
    }
    for index in nodes.indices.reversed() {
      if let parent = nodes[index].parent, nodes[parent].end < nodes[index].end {
        nodes[parent].end = nodes[index].end
      }
    }
    return nodes
  }

  private static func attributes(_ node: xmlNodePtr) -> [HTMLAttribute] {
    var result: [HTMLAttribute] = []
    var attribute = node.pointee.properties
    while let current = attribute {
      var value = ""
      var part = current.pointee.children
      while let text = part {
        value += string(text.pointee.content)
        part = text.pointee.next
      }
      result.append(HTMLAttribute(name: string(current.pointee.name).lowercased(), value: value))
      attribute = current.pointee.next
    }
    return result
  }

  private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
    guard let pointer else { return "" }
    return String(cString: pointer)
  }

  private static func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
    string(UnsafePointer(pointer))
  }

  private static func isUTF8(_ bytes: [UInt8]) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Whether the head of the page names a charset (`<meta charset=…>` or `http-equiv`): then libxml2's own
  /// detection is right and a forced UTF-8 would be wrong.
  private static func declaresCharset(_ bytes: [UInt8]) -> Bool {
    let head = String(decoding: bytes.prefix(2048), as: UTF8.self).lowercased()
    return head.contains("charset=")
  }

  // MARK: - Access

  /// Every element in document order.
  package var elements: [HTMLElement] {
    nodes.indices.filter { nodes[$0].kind == .element }.map { HTMLElement(document: self, index: $0) }
  }

  /// Elements matching `selector`, in document order.
  package func select(_ selector: HTMLSelector) -> [HTMLElement] {
    elements.filter { selector.matches($0) }
  }

  /// The first element whose `id` is `id`.
  package func element(id: String) -> HTMLElement? {
    elements.first { $0.attribute("id") == id }
  }

  /// Every `<form>` in document order.
  package var forms: [HTMLForm] {
    elements.filter { $0.name == "form" }.map { HTMLForm($0) }
  }
}

/// One attribute of an element.
package struct HTMLAttribute: Sendable, Equatable {
  package let name: String
  package let value: String
}
