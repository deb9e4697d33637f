import AuthHTTP
import Testing

@testable import AuthHTTP

@Suite struct URLReferenceTests {
  static let base = "http://a/b/c/d;p?q"

  /// RFC 3986 §5.4.1 and §5.4.2, every example (strict parser: "http:g" keeps its scheme).
  static let examples: [(String, String)] = [
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
    ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
    ("../../g", "http://a/g"),
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
  ]

  @Test func theRFCResolutionExamples() throws {
    let base = try #require(URLReference(Self.base))
    for (reference, expected) in Self.examples {
      let parsed = try #require(URLReference(reference), "\(reference)")
      #expect(parsed.resolved(against: base).text == expected, "\(reference)")
    }
  }

  @Test func partsAndRecomposition() throws {
    let url = try #require(URLReference("HTTPS://u@Host.example:8443/p/a%20th?q=1&r=%2F#frag"))
    #expect(url.scheme == "HTTPS")
    #expect(url.authority == "u@Host.example:8443")
    #expect(url.path == "/p/a%20th")
    #expect(url.query == "q=1&r=%2F")
    #expect(url.fragment == "frag")
    #expect(url.text == "HTTPS://u@Host.example:8443/p/a%20th?q=1&r=%2F#frag")
  }

  @Test(arguments: [
    "https://exa mple.com/", "https://a.example/\u{E9}", "https://a.example/%2", "https://a.example/%zz",
    "https://a.example/a\\b", "https://a.example/[x]", "1http://a/", "https://a.example/?q=\"x\"", "https://a/#a#b",
  ])
  func textOutsideRFC3986IsRefused(text: String) {
    #expect(URLReference(text) == nil)
  }

  @Test func authorities() throws {
    #expect(URLAuthority("Example.COM:8080") == URLAuthority("example.com:8080"))
    #expect(URLAuthority("example.com:8080")?.port == 8080)
    #expect(URLAuthority("example.com:")?.port == nil)
    #expect(URLAuthority("[::1]:9")?.host == "::1")
    #expect(URLAuthority("[::1]:9")?.hostInURL == "[::1]")
    #expect(URLAuthority("user:pw@h")?.userInfo == "user:pw")
    for bad in ["a@b@c", "h:0", "h:65536", "h:8x", "[::1", "[not-v6]", "[::1]x", "h%41", "h!", "[fe80::1%25eth0]"] {
      #expect(URLAuthority(bad) == nil, "\(bad)")
    }
  }

  /// The rules were checked on our parse; libcurl connects where its own parse says. On every URL we accept
  /// they must name the same origin, and the client refuses any where they would not.
  @Test(arguments: [
    "https://example.com", "https://example.com/a/../b?x=1#f", "HTTPS://Example.COM:443/", "http://127.0.0.1:8080/x",
    "http://localhost/", "http://[::1]:9/p", "https://a.example/p;x=1/%7Euser?q=a%20b", "https://a_b.example/",
    "https://example.com:/x", "http://127.0.0.1\\@evil.com/", "http://evil.com#@127.0.0.1/",
    "http://127.0.0.1:80@evil.com/", "https://evil.com\u{FF0E}example.com/", "https://example.com:08443/",
  ])
  func ourParseAndLibcurlsAgreeOnEveryURLWeAccept(text: String) throws {
    guard let target = try? RequestTarget(text) else { return }
    #expect(try LibCurl.shared.get().origin(of: target.url) == target.origin)
  }
}
