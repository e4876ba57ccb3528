import System

// The waits of the tests: each is for a condition (a log line, a file, a port, a counter) with a deadline, never for
// a time. The pauses between two looks at the condition, here, are the only ones that are not pacing under test.

/// Checks `condition` every `interval` until it holds or `timeout` passes (on the monotonic clock).
/// - Returns: whether it held; checked once more at the deadline, so a slow machine gets every chance.
@discardableResult
public func waitUntil(
    timeout: Duration, pollingEvery interval: Duration = .milliseconds(10), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = MonotonicTime.now() + timeout
    while MonotonicTime.now() < deadline {
        if try condition() { return true }
        sleep(for: interval)  // the pause between two looks at the condition
    }
    return try condition()
}

/// Checks `produce` every `interval` until it returns a value or `timeout` passes.
/// - Returns: the first value it produced, or `nil` at the deadline.
public func waitFor<T>(
    timeout: Duration, pollingEvery interval: Duration = .milliseconds(10), _ produce: () throws -> T?
) rethrows -> T? {
    let deadline = MonotonicTime.now() + timeout
    while MonotonicTime.now() < deadline {
        if let value = try produce() { return value }
        sleep(for: interval)  // the pause between two looks at the condition
    }
    return try produce()
}

/// ``waitUntil(timeout:pollingEvery:_:)`` for async tests: the pause between two looks suspends the task instead
/// of blocking its thread, so the tasks the condition waits for can run on the cooperative pool meanwhile (it has a
/// thread per core: a test that blocks one in `waitUntil` may hold up the very task it waits for). A name of its
/// own, since a synchronous closure would pick the blocking `waitUntil` even in an async test.
/// - Returns: whether `condition` held by the deadline.
public func suspendUntil(
    timeout: Duration, pollingEvery interval: Duration = .milliseconds(5),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = MonotonicTime.now() + timeout
    while MonotonicTime.now() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)  // the pause between two looks at the condition
    }
    return try await condition()
}
