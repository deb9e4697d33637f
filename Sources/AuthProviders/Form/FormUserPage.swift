import AuthConfig
import AuthHTML
import AuthHTTP
import AuthJSON
import AuthSupport

/// Reads the user off the configured user page: a JSON document through field paths, or an HTML page through
/// selectors. Which user the page shows is the session's proof of life, so a page that shows the login form
/// instead says the session is gone.
enum FormUserPage {
  /// - Parameter fallbackUsername: the username when the page shows none (the account typed at login, or the
  ///   cached user's).
  /// - Throws: `ProviderError` — `sessionRejected` when the page shows a login form, `badResponse` when it
  ///   shows no user.
  static func user(
    _ response: HTTPResponse, _ fields: FormProviderConfig.UserFields, fallbackUsername: String?
  ) async throws -> UserInfo {
    switch fields {
    case .json(let paths):
      guard let object = RESTAnswer.json(response.body)?.objectValue else {
        // A site that answers its JSON URL with the login page when logged out.
        if try await document(response).forms.contains(where: \.hasPasswordInput) {
          throw ProviderError(.sessionRejected, "the user page shows a login form")
        }
        throw ProviderError(.badResponse, "the user page is not a JSON object")
      }
      guard let user = RESTAnswer.user(object, paths, fallbackUsername: fallbackUsername) else {
        throw ProviderError(.badResponse, "the user page has no user")
      }
      return user
    case .html(let selectors):
      let document = try await document(response)
      if document.forms.contains(where: \.hasPasswordInput) {
        throw ProviderError(.sessionRejected, "the user page shows a login form")
      }
      func text(_ selector: HTMLSelector?) -> String? {
        guard let selector, let element = document.select(selector).first else { return nil }
        let text = element.visibleText
        return text.isEmpty ? nil : text
      }
      let id = text(selectors.id)
      guard let username = text(selectors.username) ?? fallbackUsername ?? id else {
        throw ProviderError(.badResponse, "the user page has no user")
      }
      // Without a user on the page there is no sign that it is the logged-in one.
      guard id != nil || text(selectors.username) != nil else {
        throw ProviderError(.badResponse, "the user page shows none of the configured fields")
      }
      return UserInfo(
        id: id ?? username, username: username, email: text(selectors.email), phone: text(selectors.phone),
        displayName: text(selectors.displayName))
    }
  }

  /// Bodies past this size are parsed on a thread of their own (`Blocking`): a 1 MiB page takes libxml2 and the
  /// copy tens of milliseconds, which must not hold a cooperative thread (two on this kind of machine) that
  /// `validate` answers need. A typical login page is a few KiB and parses in microseconds, in line.
  static let inlineParseLimit = 64 << 10

  /// The answer's body as an HTML document, in its declared charset.
  /// - Throws: `ProviderError.unsupported` when libxml2 is not installed.
  static func document(_ response: HTTPResponse) async throws -> HTMLDocument {
    let (body, charset) = (response.body, charset(response))
    do {
      guard body.count > inlineParseLimit else { return try HTMLDocument(parsing: body, charset: charset) }
      return try await Blocking.run { try HTMLDocument(parsing: body, charset: charset) }
    } catch let error as HTMLParserUnavailable {
      throw ProviderError(.unsupported, "no HTML parser: \(error.detail)")
    }
  }

  /// The `charset` parameter of the answer's `Content-Type`, if any.
  static func charset(_ response: HTTPResponse) -> String? {
    guard let type = response.header("content-type") else { return nil }
    for parameter in type.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmingCharacters(in: " \t").lowercased() == "charset" else { continue }
      let value = pair[1].trimmingCharacters(in: " \t\"")
      return value.isEmpty ? nil : String(value)
    }
    return nil
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> Substring {
    var text = self
    while let first = text.first, set.contains(first) { text = text.dropFirst() }
    while let last = text.last, set.contains(last) { text = text.dropLast() }
    return text
  }
}
