import Glibc
import System

/// Kernel thread ids and scheduler states, read from `/proc`: so that a test waits until a thread is blocked in a
/// system call (`futex`, `poll`, `read`…) instead of pausing and hoping it got there.
///
///     let reader = Locked<pid_t?>(nil)
///     let thread = NativeThread {
///         reader.withLock { $0 = Threads.currentID }
///         _ = consumer.read(maximumCount: 8, timeout: .seconds(20))  // blocks: nothing published yet
///     }
///     let id = try #require(waitFor(timeout: .seconds(10)) { reader.current })
///     #expect(waitUntil(timeout: .seconds(10)) { Threads.isBlocked(id) })
///     ring.publish(record)                                            // now it wakes a blocked reader
public enum Threads {
    /// The calling thread's kernel id (what `gettid(2)` returns), for ``isBlocked(_:in:)`` on another thread: the
    /// last part of the link `/proc/thread-self` (`PID/task/TID`).
    public static var currentID: pid_t {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        let target = String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let id = target.split(separator: "/").last.flatMap({ pid_t($0) }) else {
            preconditionFailure("cannot read /proc/thread-self: \(Errno.current)")
        }
        return id
    }

    /// `true` when thread `thread` of process `process` (this one by default) is blocked: state `S` (interruptible
    /// wait) or `D` (uninterruptible) in `/proc/PID/task/TID/stat`, until something wakes it. `false` while it runs
    /// or waits for a CPU (`R`), and when it is gone.
    public static func isBlocked(_ thread: pid_t, in process: pid_t = getpid()) -> Bool {
        guard let state = state(of: "/proc/\(process)/task/\(thread)/stat") else { return false }
        return state == "S" || state == "D"
    }

    /// The ids of the threads of `process` now.
    public static func ids(in process: pid_t) -> [pid_t] {
        Directory.entries("/proc/\(process)/task").compactMap { pid_t($0) }
    }

    /// `true` when every thread of `process` is blocked: it has nothing to do until something (input, a signal, a
    /// timer) wakes it. `false` when it has no threads (it is gone).
    public static func allBlocked(in process: pid_t) -> Bool {
        let threads = ids(in: process)
        return !threads.isEmpty && threads.allSatisfy { isBlocked($0, in: process) }
    }

    /// The state letter of a `stat` file: the field after the command name, which is in parentheses and may itself
    /// hold spaces and parentheses (so the last `)` ends it).
    static func state(of statFile: String) -> Character? {
        let text = readTextFile(statFile)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].first { $0 != " " }
    }
}
