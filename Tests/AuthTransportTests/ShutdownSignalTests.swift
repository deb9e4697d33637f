import Foundation
import Testing

@testable import AuthTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

@Suite struct ShutdownSignalTests {
  /// A host may spawn the sidecar from a thread that blocks signals (Foundation's `Process` does
  /// when called from a worker thread): the child inherits that mask, and a SIGTERM it keeps
  /// blocked would never stop the read loop. `install()` must unblock the signals it handles.
  @Test func installUnblocksSIGTERMAndSIGINTAndTurnsThemIntoAByte() async {
    // The handlers are process-wide: put the previous ones back afterwards.
    var previousTerm = sigaction()
    var previousInt = sigaction()
    sigaction(SIGTERM, nil, &previousTerm)
    sigaction(SIGINT, nil, &previousInt)
    defer {
      sigaction(SIGTERM, &previousTerm, nil)
      sigaction(SIGINT, &previousInt, nil)
    }
    let outcome = Counter()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      // A thread of our own, so its signal mask is ours to set. A signal left pending on it
      // while blocked is discarded when it exits; it is never unblocked here.
      Thread {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let stopFD = ShutdownSignal.install()
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        let unblocked = sigismember(&mask, SIGTERM) == 0 && sigismember(&mask, SIGINT) == 0
        var bytes = 0
        if unblocked {
          for signal in [SIGTERM, SIGINT] {
            pthread_kill(pthread_self(), signal)
            var byte: UInt8 = 0
            if read(stopFD, &byte, 1) == 1 { bytes += 1 }
          }
        }
        close(stopFD)
        outcome.set(unblocked ? bytes : -1)
        done.resume()
      }.start()
    }
    #expect(outcome.value != -1, "SIGTERM or SIGINT still blocked after install()")
    #expect(outcome.value == 2, "each signal writes one byte to the stop pipe")
  }
}
