import Glibc
import Synchronization
import System

/// How every long-running command (`record`, `serve`, `watch`, `collect`, `publish`) takes signals: a handler that
/// only notes the signal in a bit set and raises a ``WakeUp`` (both async-signal-safe), so that the command's loop
/// sees it at its next look or `poll`, whichever thread the kernel interrupted and whatever threads were started
/// before (which is why this is a handler and not a blocked signal waited for: a thread made earlier, such as the
/// MQTT publisher's, would still have the signal unblocked and die of it).
///
///     StopSignal.install()                                   // SIGINT and SIGTERM
///     while !StopSignal.wait(timeout: .milliseconds(250)) { … }
///     Console.error("nmea record: stopping (\(StopSignal.receivedName))\n")
///
/// A stop signal (SIGINT, SIGTERM, and the ones a command adds) sets ``isRequested`` for good; ``received`` is the
/// first. A second stop signal ends the process at once with status 130, unless the command must restore the
/// terminal first (`exitsOnSecond: false`). Other signals a command takes (SIGWINCH, SIGTSTP, SIGCONT) are
/// collected with ``take(_:)``. Handlers use `SA_RESTART`; the few calls a signal still interrupts are retried in
/// one place, the System layer.
enum StopSignal {
    /// Signals that arrived and were not taken yet, one bit each.
    private static let arrived = Atomic<UInt64>(0)
    /// The signals that stop, one bit each.
    private static let stopping = Atomic<UInt64>(0)
    /// The first stop signal; 0 until one arrives.
    private static let first = Atomic<Int32>(0)
    private static let exitsOnSecond = Atomic<Bool>(true)
    /// Raised by every signal taken: poll ``wakeUp``'s descriptor beside others to wake up for one.
    static let wakeUp = WakeUp()

    /// Takes SIGINT and SIGTERM, the extra stop signals `stops` (SIGHUP, SIGQUIT) and the `others` (SIGWINCH…),
    /// and unblocks them in the calling thread (a parent may have started us with them blocked).
    static func install(_ others: [Int32] = [], stops: [Int32] = [], exitsOnSecond: Bool = true) {
        _ = wakeUp  // made now, not in the handler
        StopSignal.exitsOnSecond.store(exitsOnSecond, ordering: .relaxed)
        var mask: UInt64 = 0
        for signal in [SIGINT, SIGTERM] + stops { mask |= bit(signal) }
        stopping.store(mask, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in StopSignal.note(signal) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM] + stops + others {
            sigaction(signal, &action, nil)
            sigaddset(&signals, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// The handler's work: atomics and one `write(2)` (and `unlink(2)`s on the way out).
    private static func note(_ signal: Int32) {
        if stopping.load(ordering: .relaxed) & bit(signal) != 0 {
            let (isFirst, _) = first.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
            if !isFirst && exitsOnSecond.load(ordering: .relaxed) {
                ReplacingFile.removeAllPending()  // no temporary output left behind
                _exit(130)
            }
        }
        arrived.bitwiseOr(bit(signal), ordering: .relaxed)
        wakeUp.signal()
    }

    private static func bit(_ signal: Int32) -> UInt64 { signal > 0 && signal < 64 ? 1 << UInt64(signal) : 0 }

    /// `true` once a stop signal has arrived.
    static var isRequested: Bool { first.load(ordering: .relaxed) != 0 }

    /// The first stop signal, once one has arrived.
    static var received: Int32? {
        let signal = first.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// Waits up to `timeout` for a signal; `true` when a stop has been requested (now or before).
    @discardableResult
    static func wait(timeout: Duration) -> Bool {
        if !isRequested && wakeUp.wait(timeout: timeout) { wakeUp.drain() }
        return isRequested
    }

    /// `true` when `signal` arrived since it was last taken (taking it).
    static func take(_ signal: Int32) -> Bool {
        arrived.bitwiseAnd(~bit(signal), ordering: .relaxed).oldValue & bit(signal) != 0
    }

    /// The name of ``received`` (`SIGTERM`), for the "stopping" line.
    static var receivedName: String { received.map(name) ?? "no signal" }

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        case SIGWINCH: "SIGWINCH"
        default: "signal \(signal)"
        }
    }
}
