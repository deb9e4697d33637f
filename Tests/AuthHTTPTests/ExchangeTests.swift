import Testing

@testable import AuthHTTP

@Suite struct ExchangeTests {
  func exchange(_ method: HTTPMethod = .post, _ url: String = "https://a.example/login", body: [UInt8]? = [1]) throws
    -> Exchange
  {
    Exchange(
      method: method, target: try RequestTarget(url),
      headers: [
        HTTPHeader("Authorization", "Basic x"), HTTPHeader("Content-Type", "application/x-www-form-urlencoded"),
      ],
      body: body)
  }

  func redirect(_ status: Int, to location: String?) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: location.map { [HTTPHeader("Location", $0)] } ?? [], body: [],
      finalURL: "https://a.example/login")
  }

  func refusal(_ body: () throws -> Exchange?) -> HTTPError.Code? {
    do {
      _ = try body()
      return nil
    } catch {
      return (error as? HTTPError)?.code
    }
  }

  @Test func onlyRedirectStatusesWithALocationAreFollowed() throws {
    let post = try exchange()
    #expect(try post.redirected(by: redirect(200, to: "/x"), followed: 0, limit: 5) == nil)
    #expect(try post.redirected(by: redirect(300, to: "/x"), followed: 0, limit: 5) == nil)
    #expect(try post.redirected(by: redirect(304, to: "/x"), followed: 0, limit: 5) == nil)
    #expect(try post.redirected(by: redirect(302, to: nil), followed: 0, limit: 5) == nil)
  }

  @Test func a303OrAPostedRedirectBecomesABodilessGet() throws {
    for status in [301, 302, 303] {
      let next = try #require(try exchange().redirected(by: redirect(status, to: "/home"), followed: 0, limit: 5))
      #expect(next.method == .get)
      #expect(next.body == nil)
      #expect(next.headers.map(\.name) == ["Authorization"])
      #expect(next.target.url == "https://a.example/home")
    }
  }

  @Test func a307Or308RepeatsTheRequestAsItWas() throws {
    for status in [307, 308] {
      let next = try #require(try exchange().redirected(by: redirect(status, to: "/again"), followed: 0, limit: 5))
      #expect(next.method == .post)
      #expect(next.body == [1])
      #expect(next.headers.count == 2)
    }
    let get = try #require(
      try exchange(.get, body: nil).redirected(by: redirect(302, to: "/x"), followed: 0, limit: 1))
    #expect(get.method == .get)
  }

  @Test func anotherOriginTooManyHopsOrABadLocationIsRefused() throws {
    let post = try exchange()
    #expect(
      refusal { try post.redirected(by: redirect(302, to: "https://b.example/"), followed: 0, limit: 5) }
        == .redirectRefused)
    #expect(
      refusal { try post.redirected(by: redirect(307, to: "https://a.example:444/"), followed: 0, limit: 5) }
        == .redirectRefused)
    #expect(
      refusal { try post.redirected(by: redirect(307, to: "http://a.example/"), followed: 0, limit: 5) }
        == .redirectRefused)
    #expect(
      refusal { try post.redirected(by: redirect(302, to: "ftp://a.example/"), followed: 0, limit: 5) }
        == .redirectRefused)
    #expect(refusal { try post.redirected(by: redirect(302, to: "/x"), followed: 2, limit: 2) } == .redirectRefused)
    #expect(refusal { try post.redirected(by: redirect(302, to: "/x"), followed: 0, limit: 0) } == .redirectRefused)
  }
}
