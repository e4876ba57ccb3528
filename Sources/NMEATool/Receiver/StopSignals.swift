import Glibc

/// SIGINT and SIGTERM, taken synchronously: blocked in every thread (call ``block()`` before starting any), then
/// waited for on the main thread with a timeout, so the main loop can also refresh a status line.
enum StopSignals {
    private static var set: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Blocks SIGINT and SIGTERM in this thread and every thread started after.
    static func block() {
        var signals = set
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits up to `milliseconds` for SIGINT or SIGTERM; returns the signal, or `nil` on timeout.
    static func wait(milliseconds: Int) -> Int32? {
        var signals = set
        var timeout = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        let received = sigtimedwait(&signals, nil, &timeout)
        return received > 0 ? received : nil
    }
}
