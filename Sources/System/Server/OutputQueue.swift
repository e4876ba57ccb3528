import Glibc

/// Bytes encoded once and sent to many clients: an immutable buffer at a stable address, so one `sendmsg` can
/// gather several of them.
package final class SharedBytes: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let count: Int

    /// A copy of `bytes`, followed by CR LF when `lineEnding` (every gpsd object and sentence ends so).
    package init(_ bytes: UnsafeRawBufferPointer, lineEnding: Bool = true) {
        count = bytes.count + (lineEnding ? 2 : 0)
        base = .allocate(byteCount: max(count, 1), alignment: 1)
        if let source = bytes.baseAddress { base.copyMemory(from: source, byteCount: bytes.count) }
        if lineEnding {
            base.storeBytes(of: UInt8(ascii: "\r"), toByteOffset: bytes.count, as: UInt8.self)
            base.storeBytes(of: UInt8(ascii: "\n"), toByteOffset: bytes.count + 1, as: UInt8.self)
        }
    }

    /// A copy of `bytes` (and CR LF).
    package static func line(_ bytes: [UInt8], lineEnding: Bool = true) -> SharedBytes {
        bytes.withUnsafeBytes { SharedBytes($0, lineEnding: lineEnding) }
    }

    deinit { base.deallocate() }
}

/// What a client has yet to be sent, in order: shared buffers, the first perhaps partly sent. One buffer may sit in
/// many clients' queues at once (the fan-out of ``TCPServerCore/broadcast(_:where:)``).
package struct OutputQueue {
    private var chunks: [SharedBytes] = []
    private var head = 0
    /// Bytes of `chunks[head]` already sent.
    private var offset = 0
    /// Bytes not yet sent.
    package private(set) var byteCount = 0

    package init() {}

    /// - Complexity: O(1).
    package var isEmpty: Bool { byteCount == 0 }

    /// - Complexity: O(1) amortized.
    package mutating func append(_ chunk: SharedBytes) {
        chunks.append(chunk)
        byteCount += chunk.count
    }

    /// Drops everything still queued.
    /// - Complexity: O(*n*) in the buffers queued.
    package mutating func removeAll() {
        chunks.removeAll()
        head = 0
        offset = 0
        byteCount = 0
    }

    package enum SendOutcome: Equatable {
        /// Everything was sent.
        case drained
        /// The socket's buffer is full: wait for `POLLOUT`.
        case blocked
        /// The connection failed.
        case failed(Errno)
    }

    /// Sends as much as the socket takes, up to 64 buffers per `sendmsg(2)` (`MSG_NOSIGNAL`: a closed peer is
    /// an error, not a SIGPIPE). Returns the bytes sent in `sent`.
    /// - Complexity: O(*n*) in the buffers sent, one system call per 64.
    package mutating func send(to descriptor: FileDescriptor, sent: inout Int) -> SendOutcome {
        defer { compact() }
        while head < chunks.count {
            let result = withUnsafeTemporaryAllocation(of: iovec.self, capacity: 64) { vectors in
                var used = 0
                var index = head
                while index < chunks.count && used < 64 {
                    let chunk = chunks[index]
                    let skip = index == head ? offset : 0
                    vectors[used] = iovec(iov_base: chunk.base + skip, iov_len: chunk.count - skip)
                    used += 1
                    index += 1
                }
                let filled = UnsafeMutableBufferPointer(rebasing: vectors[..<used])
                return Result { () throws(Errno) in
                    try descriptor.send(gathering: filled, flags: [.noSignal, .dontWait])
                }
            }
            switch result {
            case .success(let count):
                sent += count
                consume(count)
            case .failure(.wouldBlock):
                return .blocked
            case .failure(let error):
                return .failed(error)
            }
        }
        return .drained
    }

    private mutating func consume(_ count: Int) {
        var remaining = count
        byteCount -= count
        while remaining > 0 && head < chunks.count {
            let left = chunks[head].count - offset
            if remaining >= left {
                remaining -= left
                head += 1
                offset = 0
            } else {
                offset += remaining
                remaining = 0
            }
        }
    }

    private mutating func compact() {
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
