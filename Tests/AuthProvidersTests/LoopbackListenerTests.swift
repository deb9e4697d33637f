import AuthCrypto
import Foundation
import Testing

@testable import AuthProviders

/// RFC 8252 §7.3: try IPv4 and IPv6 loopback, and use whichever is available.
@Suite struct LoopbackListenerTests {
  @Test func ipv4LoopbackComesFirst() throws {
    let listener = try LoopbackListener()
    defer { listener.close() }
    #expect(listener.address == .ipv4)
    #expect(listener.redirectURI == "http://127.0.0.1:\(listener.port)/callback")
  }

  /// Where 127.0.0.1 cannot be bound, ::1 serves the redirect, and the redirect URI names it.
  @Test func onIPv6LoopbackTheRedirectArrivesAndTheURINamesIt() throws {
    let listener = try LoopbackListener(addresses: [.ipv6])
    defer { listener.close() }
    #expect(listener.redirectURI == "http://[::1]:\(listener.port)/callback")
    let port = listener.port
    Thread.detachNewThread {
      let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
      defer { close(fd) }
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      address.sin6_addr = in6addr_loopback
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
      guard connected == 0 else { return }
      let request = Array("GET /callback?code=c6&state=st HTTP/1.1\r\nHost: [::1]:\(port)\r\n\r\n".utf8)
      _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
    }
    var outcome: CallbackRequest.Outcome?
    for _ in 0..<400 where outcome == nil {
      outcome = listener.step(milliseconds: 50, state: "st", issuer: OAuth2Fixture.issuer)
    }
    #expect(outcome == .code(SecretBytes(Array("c6".utf8))))
  }
}
