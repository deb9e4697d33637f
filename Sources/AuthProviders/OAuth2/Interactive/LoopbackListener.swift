#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Synchronization

/// The redirect target of a native app's authorization request (RFC 8252 §7.3): a TCP listener on
/// 127.0.0.1 (or, where that cannot be bound, ::1) with a port the kernel picks, opened when the login starts and
/// closed when it ends (§8.3).
///
/// Non-blocking sockets and `poll`, driven in short `step`s that the owner runs on the `Blocking` pool, so no
/// thread of the cooperative pool ever waits on the network and a cancelled login is seen between two steps.
/// Several connections are served side by side (browsers open spare ones that send nothing), each with a
/// size cap and a deadline, so a stray local client can neither wedge the wait nor make it buffer much.
final class LoopbackListener: Sendable {
  /// One connection: the bytes it sent so far and when it must have sent its whole request head.
  private struct Connection {
    let fd: Int32
    var head: [UInt8] = []
    let deadline: UInt64
  }

  private struct State {
    var listener: Int32
    var connections: [Connection] = []
  }

  /// How long one connection may take to send its request head.
  static let connectionMilliseconds: UInt64 = 5_000
  /// Connections served at once; the oldest is dropped for a new one beyond this.
  static let maxConnections = 16

  let port: UInt16
  /// Touched by `step` and `close` only, which the owner calls one at a time; the lock is never contended.
  private let state: Mutex<State>

  /// The loopback address the listener is on: the redirect URI must name the one that was bound.
  enum Address: Sendable, Equatable {
    case ipv4
    case ipv6

    /// As a URL writes it (RFC 8252 §7.3: the IP literal, never `localhost`).
    var literal: String { self == .ipv4 ? "127.0.0.1" : "[::1]" }
  }

  let address: Address

  /// Binds the first of `addresses` that can be bound, on an ephemeral port, and listens. RFC 8252 §7.3
  /// recommends trying IPv4 and IPv6 loopback and using whichever is available: a host without IPv4 loopback (an
  /// IPv6-only container) still gets its login.
  /// - Throws: `ProviderError.networkUnavailable` when no address can be set up.
  init(addresses: [Address] = [.ipv4, .ipv6]) throws(ProviderError) {
    var failures: [String] = []
    for address in addresses {
      do throws(ProviderError) {
        let (fd, port) = try Self.bound(on: address)
        self.address = address
        self.port = port
        state = Mutex(State(listener: fd))
        return
      } catch {
        failures.append(error.detail)
      }
    }
    throw ProviderError(.networkUnavailable, "loopback listener: \(failures.joined(separator: "; "))")
  }

  /// A non-blocking listening socket on `address`, and its port.
  /// - Throws: `ProviderError.networkUnavailable` saying why (an errno).
  private static func bound(on address: Address) throws(ProviderError) -> (Int32, UInt16) {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    let fd = socket(address == .ipv4 ? AF_INET : AF_INET6, type, 0)
    guard fd >= 0 else { throw ProviderError(.networkUnavailable, "no \(address) socket (errno \(errno))") }
    var port: UInt16 = 0
    let bound: Bool
    switch address {
    case .ipv4:
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      bound = bindAndListen(fd, &socketAddress)
      port = UInt16(bigEndian: socketAddress.sin_port)
    case .ipv6:
      var socketAddress = sockaddr_in6()
      socketAddress.sin6_family = sa_family_t(AF_INET6)
      socketAddress.sin6_addr = in6addr_loopback
      bound = bindAndListen(fd, &socketAddress)
      port = UInt16(bigEndian: socketAddress.sin6_port)
    }
    guard bound else {
      let code = errno
      closeDescriptor(fd)
      throw ProviderError(.networkUnavailable, "cannot listen on \(address.literal) (errno \(code))")
    }
    return (fd, port)
  }

  /// Binds `fd` to `socketAddress` (port 0), listens, and reads back the port the kernel chose into it.
  private static func bindAndListen<SocketAddress>(_ fd: Int32, _ socketAddress: inout SocketAddress) -> Bool {
    var length = socklen_t(MemoryLayout<SocketAddress>.size)
    return withUnsafeMutablePointer(to: &socketAddress) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
        bind(fd, generic, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, generic, &length) == 0
      }
    }
  }

  deinit { close() }

  /// `http://127.0.0.1:<port>/callback` (or `[::1]`): the IP literal, not `localhost` (RFC 8252 §8.3).
  var redirectURI: String { "http://\(address.literal):\(port)\(CallbackRequest.path)" }

  /// Waits up to `milliseconds` for traffic, answers every connection whose request is complete, and returns
  /// the outcome of the first request with the right `state`, if one came.
  func step(milliseconds: Int32, state expected: String, issuer: String) -> CallbackRequest.Outcome? {
    state.withLock { state -> CallbackRequest.Outcome? in
      guard state.listener >= 0 else { return nil }
      var polled = [pollfd(fd: state.listener, events: Int16(POLLIN), revents: 0)]
      polled += state.connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
      let now = Self.monotonicMilliseconds()
      let nearest = state.connections.map(\.deadline).min().map { $0 > now ? $0 - now : 0 } ?? UInt64(milliseconds)
      let timeout = Int32(min(UInt64(milliseconds), nearest))
      guard poll(&polled, nfds_t(polled.count), timeout) >= 0 else { return nil }  // EINTR: the next step polls again

      var outcome: CallbackRequest.Outcome?
      var kept: [Connection] = []
      let after = Self.monotonicMilliseconds()
      for (index, var connection) in state.connections.enumerated() {
        var open = true
        if polled[index + 1].revents != 0 {
          let peerOpen = Self.receive(into: &connection)
          switch CallbackRequest.evaluate(connection.head, state: expected, issuer: issuer) {
          case .incomplete: open = peerOpen
          case .answer(let page, let result):
            Self.answer(connection.fd, page)
            open = false
            if outcome == nil { outcome = result }
          }
        }
        if open, after >= connection.deadline {
          Self.answer(connection.fd, .timedOut)
          open = false
        }
        if open { kept.append(connection) } else { closeDescriptor(connection.fd) }
      }
      if polled[0].revents & Int16(POLLIN) != 0 {
        while true {
          let accepted = accept(state.listener, nil, nil)
          if accepted < 0 { break }
          // Linux sockets do not inherit these from the listener (and Glibc hides `accept4`).
          _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
          _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
          kept.append(Connection(fd: accepted, deadline: after + Self.connectionMilliseconds))
          if kept.count > Self.maxConnections { closeDescriptor(kept.removeFirst().fd) }
        }
      }
      state.connections = kept
      return outcome
    }
  }

  /// Closes the listener and every connection; the port is free again once this returns. Idempotent.
  func close() {
    state.withLock { state in
      for connection in state.connections { closeDescriptor(connection.fd) }
      state.connections = []
      if state.listener >= 0 { closeDescriptor(state.listener) }
      state.listener = -1
    }
  }

  /// Reads what is there without blocking; false when the peer closed its side or failed.
  private static func receive(into connection: inout Connection) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 2048)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        connection.head += buffer[0..<count]
        // Past the cap `evaluate` answers 431; reading further would only buffer more.
        if connection.head.count > CallbackRequest.maxHeadBytes { return true }
        continue
      }
      if count < 0, errno == EINTR { continue }
      return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }
  }

  /// Best effort: the page is small enough for the socket buffer; a peer that went away is ignored.
  private static func answer(_ fd: Int32, _ page: CallbackPage) {
    let bytes = page.bytes
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    shutdown(fd, Int32(SHUT_WR))
  }

  private static func monotonicMilliseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec) / 1_000_000
  }
}

/// `close(2)`, named apart from `LoopbackListener.close()`.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
