import Glibc
import Synchronization
import TestSupport
import Threading

/// A value shared between tasks and threads.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

// MARK: Tasks that run whatever the test runner does

/// A task executor with a thread of its own. Swift Testing runs synchronous tests on the cooperative pool (one
/// thread per core); when other suites' tests block those threads, a subscriber task on the pool may not run for
/// seconds. Subscribers in these tests prefer this executor, so they run on time whatever else the runner does.
final class TestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = TestExecutor()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var thread: NativeThread?

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        thread = NativeThread { [self] in
            while true {
                pthread_mutex_lock(mutex)
                while jobs.isEmpty { pthread_cond_wait(condition, mutex) }
                let ready = jobs
                jobs.removeAll()
                pthread_mutex_unlock(mutex)
                for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// Starts `body` on the ``TestExecutor``.
@discardableResult
func spawn<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> Task<T, Never> {
    Task(executorPreference: TestExecutor.shared) { await body() }
}

/// Runs `body` on the ``TestExecutor`` and waits (blocking) for its result, at most `timeout`.
func runAsync<T: Sendable>(timeout: Duration = .seconds(10), _ body: @escaping @Sendable () async -> T) -> T? {
    let result = Shared<T?>(nil)
    spawn {
        let value = await body()
        result.withLock { $0 = value }
    }
    var value: T?
    _ = waitUntil(timeout: timeout) {
        value = result.withLock { $0 }
        return value != nil
    }
    return value
}

/// A failure of the test's own machinery (a server that never started), with what it said.
struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
