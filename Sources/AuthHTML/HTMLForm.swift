/// A `<form>` and its controls, read as a browser would submit it (HTML Living Standard §4.10.21.4,
/// "constructing the entry list"), minus what a login cannot need: files, image buttons, `dirname`.
package struct HTMLForm: Sendable {
  package let element: HTMLElement
  /// Every control of the form in tree order: those inside it, and those elsewhere that name it with `form="id"`.
  package let controls: [HTMLFormControl]

  package init(_ element: HTMLElement) {
    self.element = element
    let id = element.attribute("id")
    controls = element.document.elements.compactMap { candidate in
      guard HTMLFormControl.tags.contains(candidate.name) else { return nil }
      let owner = candidate.attribute("form")
      let belongs = owner.map { $0 == id && id != nil } ?? element.contains(candidate)
      return belongs ? HTMLFormControl(candidate) : nil
    }
  }

  package var id: String? { element.attribute("id") }

  /// The `action` attribute as written; nil or empty means "the page's own URL".
  package var action: String? { element.attribute("action") }

  /// `get`, `post` or `dialog`, lower-case; `get` when absent or unknown, as browsers do.
  package var method: String {
    let method = (element.attribute("method") ?? "get").lowercased()
    return ["get", "post", "dialog"].contains(method) ? method : "get"
  }

  /// Whether the form has a password field: what makes a form a login form.
  package var hasPasswordInput: Bool { controls.contains { $0.type == "password" } }

  /// The name/value pairs a browser would submit without pressing a named button, in tree order.
  package var entries: [(name: String, value: String)] {
    controls.compactMap { control in control.entry.map { (control.name, $0) } }
  }
}
