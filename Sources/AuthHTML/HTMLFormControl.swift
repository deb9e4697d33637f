/// One control of a form: `<input>`, `<select>`, `<textarea>` or `<button>`.
package struct HTMLFormControl: Sendable {
  static let tags: Set<String> = ["input", "select", "textarea", "button"]
  /// Inputs a person types into, as opposed to buttons, boxes and hidden values.
  static let textTypes: Set<String> = ["text", "email", "tel", "search", "url", ""]

  package let element: HTMLElement

  init(_ element: HTMLElement) { self.element = element }

  package var name: String { element.attribute("name") ?? "" }

  /// For an `<input>` its `type`, lower-case, `text` when absent; otherwise the tag name.
  package var type: String {
    guard element.name == "input" else { return element.name }
    let type = (element.attribute("type") ?? "text").lowercased()
    return type.isEmpty ? "text" : type
  }

  package var isHidden: Bool { type == "hidden" }

  /// A field a user types an account name into (text, email, tel, …).
  package var isTextEntry: Bool { element.name == "input" && Self.textTypes.contains(type) }

  package var isDisabled: Bool {
    if element.hasAttribute("disabled") { return true }
    // A control inside a disabled fieldset is disabled too (its first legend aside, which no login needs).
    var ancestor = element.parent
    while let current = ancestor {
      if current.name == "fieldset", current.hasAttribute("disabled") { return true }
      ancestor = current.parent
    }
    return false
  }

  /// What the control contributes to a submission, or nil when it contributes nothing: no name, disabled, a
  /// button (only the pressed one is sent, and we press none), an unchecked box, a file.
  package var entry: String? {
    guard !name.isEmpty, !isDisabled else { return nil }
    switch element.name {
    case "textarea":
      // The parser keeps the text as is; a browser drops one leading newline.
      let text = element.textContent
      return text.hasPrefix("\n") ? String(text.dropFirst()) : text
    case "select":
      let options = element.descendants.filter { $0.name == "option" && !$0.hasAttribute("disabled") }
      guard let chosen = options.first(where: { $0.hasAttribute("selected") }) ?? options.first else { return nil }
      return chosen.attribute("value") ?? chosen.visibleText
    case "input":
      switch type {
      case "submit", "reset", "button", "image", "file":
        return nil
      case "checkbox", "radio":
        return element.hasAttribute("checked") ? (element.attribute("value") ?? "on") : nil
      default:
        return element.attribute("value") ?? ""
      }
    default:
      return nil
    }
  }
}
