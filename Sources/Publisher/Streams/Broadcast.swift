import Threading

/// Hands values to any number of asynchronous subscribers, each with a buffer of at most ``bufferLimit`` values.
///
/// A subscriber that falls behind loses its oldest values — with a limit of 1 it always gets the newest value and
/// nothing else: latest-value semantics. The sender never waits for a subscriber and no subscriber builds a backlog.
/// A new subscriber starts with the latest value sent (if any), then live ones.
///
/// Safe from any thread; a subscriber's values are awaited from one task at a time.
final class Broadcast<Element: Sendable>: Sendable {
    /// The most values one subscriber holds before the oldest is dropped.
    let bufferLimit: Int
    private let state = Locked(State())

    private struct State {
        var latest: Element?
        var subscribers: [Int: Subscriber] = [:]
        var nextIdentifier = 0
        var isFinished = false
        var sent = 0
    }

    private enum Outcome {
        case value(Element)
        case end
        case wait
    }

    private struct Subscriber {
        /// Values not yet taken, oldest first (at most `bufferLimit`).
        var buffer: [Element] = []
        /// The task waiting for a value, if one is.
        var waiter: UnsafeContinuation<Element?, Never>?
        var dropped = 0
    }

    /// - Complexity: O(1).
    init(bufferLimit: Int) {
        precondition(bufferLimit >= 1, "a subscriber holds at least one value")
        self.bufferLimit = bufferLimit
    }

    // MARK: Sending

    /// Sends `value` to every subscriber: a waiting one gets it at once; one that is busy finds it (and at most
    /// `bufferLimit - 1` earlier values) when it next asks. Ignored after ``finish()``.
    /// - Complexity: O(*s* × `bufferLimit`) for *s* subscribers; never waits for one.
    func send(_ value: Element) {
        var woken: [UnsafeContinuation<Element?, Never>] = []
        state.withLock { state in
            guard !state.isFinished else { return }
            state.latest = value
            state.sent += 1
            for index in state.subscribers.indices {
                if let waiter = state.subscribers.values[index].waiter {
                    state.subscribers.values[index].waiter = nil
                    woken.append(waiter)
                } else {
                    state.subscribers.values[index].buffer.append(value)
                    if state.subscribers.values[index].buffer.count > bufferLimit {
                        state.subscribers.values[index].buffer.removeFirst()
                        state.subscribers.values[index].dropped += 1
                    }
                }
            }
        }
        for waiter in woken { waiter.resume(returning: value) }
    }

    /// Ends every subscription once its buffered values are taken; later ``send(_:)``s are ignored. New
    /// subscribers still get the latest value, then the end.
    /// - Complexity: O(*s*).
    func finish() {
        var woken: [UnsafeContinuation<Element?, Never>] = []
        state.withLock { state in
            state.isFinished = true
            for index in state.subscribers.indices {
                if let waiter = state.subscribers.values[index].waiter {
                    state.subscribers.values[index].waiter = nil
                    woken.append(waiter)
                }
            }
        }
        for waiter in woken { waiter.resume(returning: nil) }
    }

    /// The last value sent.
    /// - Complexity: O(1).
    var latest: Element? { state.withLock { $0.latest } }

    /// `true` once ``finish()`` was called.
    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Subscribers registered now.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Values sent so far.
    var sentCount: Int { state.withLock { $0.sent } }

    /// Subscribers waiting for a value now (suspended in ``next(_:)``): what a test waits for before it sends, to
    /// know the value is handed to a waiting task rather than found in its buffer later.
    var waitingCount: Int { state.withLock { state in state.subscribers.values.count { $0.waiter != nil } } }

    // MARK: Subscribing

    /// Registers a subscriber whose first value is the latest one sent, if any.
    /// - Complexity: O(1) amortized.
    func subscribe() -> Int {
        state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            var subscriber = Subscriber()
            if let latest = state.latest { subscriber.buffer.append(latest) }
            state.subscribers[identifier] = subscriber
            return identifier
        }
    }

    /// Removes a subscriber; a task waiting for it gets `nil`.
    /// - Complexity: O(1) amortized.
    func unsubscribe(_ identifier: Int) {
        let waiter = state.withLock { state in state.subscribers.removeValue(forKey: identifier)?.waiter }
        waiter?.resume(returning: nil)
    }

    /// The values a subscriber has lost because it was busy when newer ones arrived.
    func dropped(_ identifier: Int) -> Int {
        state.withLock { $0.subscribers[identifier]?.dropped ?? 0 }
    }

    /// The subscriber's next value: its oldest buffered one at once, else the next one sent. `nil` when the
    /// broadcast has finished (and the buffer is empty), the subscriber was removed, or the task is cancelled.
    func next(_ identifier: Int) async -> Element? {
        if Task.isCancelled {
            unsubscribe(identifier)
            return nil
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
                let outcome = state.withLock { state -> Outcome in
                    guard let subscriber = state.subscribers[identifier] else { return .end }
                    if !subscriber.buffer.isEmpty {
                        return .value(state.subscribers[identifier]!.buffer.removeFirst())
                    }
                    if state.isFinished { return .end }
                    state.subscribers[identifier]!.waiter = continuation
                    return .wait
                }
                switch outcome {
                case .value(let value): continuation.resume(returning: value)
                case .end: continuation.resume(returning: nil)
                case .wait: break
                }
            }
        } onCancel: {
            // Runs at most once, possibly before the continuation is stored: then `next` finds no subscriber.
            unsubscribe(identifier)
        }
    }
}

/// The values of a ``PositionPublisher``'s streams, as an `AsyncSequence`: each iteration (each
/// `makeAsyncIterator()`) is a subscriber of its own that starts with the latest value, then gets live ones.
///
///     for await position in publisher.positions {      // latest value first, with its age
///         show(position.fix, age: position.age)
///     }                                                // ends at stop(), the end of a file, or task cancellation
///
/// A subscriber that takes its time gets the newest values when it asks again (for ``PositionPublisher/positions``
/// only the newest: no backlog). Cancelling the iterating task ends the iteration: `next()` returns `nil`.
public struct BroadcastSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never
    let broadcast: Broadcast<Element>

    init(_ broadcast: Broadcast<Element>) { self.broadcast = broadcast }

    /// A new subscriber.
    /// - Complexity: O(1).
    public func makeAsyncIterator() -> Iterator { Iterator(subscription: Subscription(broadcast)) }

    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = Never
        let subscription: Subscription

        /// The next value; `nil` at the end of the stream or when the task is cancelled.
        public mutating func next() async -> Element? { await subscription.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await subscription.next()
        }

        /// Values this subscriber lost because newer ones arrived while it was busy.
        public var dropped: Int { subscription.broadcast.dropped(subscription.identifier) }
    }

    /// One subscriber's registration; leaving when the iterator goes away.
    final class Subscription: Sendable {
        let broadcast: Broadcast<Element>
        let identifier: Int

        init(_ broadcast: Broadcast<Element>) {
            self.broadcast = broadcast
            identifier = broadcast.subscribe()
        }

        deinit { broadcast.unsubscribe(identifier) }

        func next() async -> Element? { await broadcast.next(identifier) }
    }
}
