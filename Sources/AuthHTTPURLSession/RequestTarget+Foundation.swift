import AuthHTTP
import Foundation

extension RequestTarget {
  /// The URL as Foundation holds it, for the URLRequest libcurl is given.
  ///
  /// `RequestTarget` is parsed without Foundation, so that the sidecar can refuse a URL before starting the
  /// worker. Two parsers could disagree on an odd URL about which host it names, and the rules (HTTPS, no
  /// credentials) were checked on ours; so Foundation's reading must name the same scheme, host and port, or
  /// the request is refused.
  /// - Throws: `HTTPError.invalidURL`.
  func foundationURL() throws(HTTPError) -> URL {
    guard let components = URLComponents(string: url), let foundationURL = components.url,
      components.scheme?.lowercased() == origin.scheme, components.user == nil, components.password == nil,
      let host = components.host.map(Self.bare), host == origin.host,
      (components.port ?? (origin.scheme == "https" ? 443 : 80)) == origin.port
    else { throw HTTPError(.invalidURL, "Foundation reads another origin than \(origin.host) from the URL") }
    return foundationURL
  }

  /// Lower-cased, without IPv6 brackets (Foundation versions differ on keeping them).
  private static func bare(_ host: String) -> String {
    let lower = host.lowercased()
    return lower.hasPrefix("[") && lower.hasSuffix("]") ? String(lower.dropFirst().dropLast()) : lower
  }
}
