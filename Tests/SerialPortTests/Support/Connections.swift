import Glibc
import NMEA
import Synchronization
import System
import TestSupport
import Testing
import Threading

@testable import SerialPort

// Without Foundation: the little of `String` the serial tests need.
extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = String(rest).range(of: target) {
            let text = String(rest)
            result += text[..<range.lowerBound] + replacement
            rest = Substring(text[range.upperBound...])
        }
        return result + rest
    }

    func range(of target: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }

    func contains(_ text: String) -> Bool { range(of: text) != nil }
}

/// Collects a connection's events from its thread.
final class EventLog: Sendable {
    private let events = Mutex<[(MonotonicTime, ConnectionStatus)]>([])
    let bytes = Atomic<Int>(0)
    let sentences = Atomic<Int>(0)

    func record(_ status: ConnectionStatus) {
        events.withLock { $0.append((.now(), status)) }
    }

    var statuses: [ConnectionStatus] { events.withLock { $0.map(\.1) } }

    /// When the first status after `since` matching `predicate` was recorded.
    func firstTime(after since: MonotonicTime, where predicate: (ConnectionStatus) -> Bool) -> MonotonicTime? {
        events.withLock { list in list.first { $0.0 >= since && predicate($0.1) }?.0 }
    }

    func count(where predicate: (ConnectionStatus) -> Bool) -> Int {
        events.withLock { list in list.filter { predicate($0.1) }.count }
    }
}

extension ConnectionStatus {
    var isConnected: Bool { if case .connected = self { true } else { false } }
    var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
}

/// Runs a ReceiverConnection on a background thread, logging its statuses and counting sentences.
final class ConnectionRunner: @unchecked Sendable {
    let connection: ReceiverConnection
    let log = EventLog()
    private let finished = Atomic<Bool>(false)
    private let thrown = Mutex<SerialPortError?>(nil)
    private var thread: NativeThread?

    init(_ connection: ReceiverConnection) { self.connection = connection }

    func start() {
        thread = NativeThread { [self] in
            var framer = NMEA.Framer()
            do throws(SerialPortError) {
                try connection.run { event in
                    switch event {
                    case .data(let bytes):
                        log.bytes.add(bytes.count, ordering: .relaxed)
                        framer.feed(bytes) { event in
                            if case .sentence = event { log.sentences.add(1, ordering: .relaxed) }
                        }
                    case .status(let status):
                        log.record(status)
                    case .idle:
                        break
                    }
                }
            } catch {
                thrown.withLock { $0 = error }
            }
            finished.store(true, ordering: .releasing)
        }
    }

    /// Stops the connection and waits for `run` to return; returns what it threw.
    @discardableResult
    func stop() -> SerialPortError? {
        connection.stop()
        thread?.join()
        return thrown.withLock { $0 }
    }

    /// Waits for `run` to return by itself (for fatal errors).
    func waitForEnd(timeout: Duration) -> SerialPortError?? {
        guard waitUntil(timeout: timeout, { finished.load(ordering: .acquiring) }) else { return nil }
        thread?.join()
        return .some(thrown.withLock { $0 })
    }
}
