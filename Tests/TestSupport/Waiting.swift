import System

/// Checks `condition` every `interval` until it holds or `timeout` passes (on the monotonic clock).
/// - Returns: whether it held; checked once more at the deadline, so a slow machine gets every chance.
@discardableResult
public func waitUntil(
    timeout: Duration, pollingEvery interval: Duration = .milliseconds(10), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = MonotonicTime.now() + timeout
    while MonotonicTime.now() < deadline {
        if try condition() { return true }
        sleep(for: interval)
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
        sleep(for: interval)
    }
    return try produce()
}
