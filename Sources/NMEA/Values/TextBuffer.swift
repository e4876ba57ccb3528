/// Bytes written into a buffer on the stack and appended to an array in pieces: ``flush()`` at the end (done by
/// ``appending(to:_:)``) and whenever the buffer is full. The writers of whole documents (a GPX point, a JSON
/// object) write through one, so that appending to their array, which checks its uniqueness and room each time,
/// happens once a piece rather than once a byte.
public struct TextBuffer {
    /// The buffer's size: the most a stack allocation takes (larger ones would go to the heap).
    public static let capacity = 1024
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline let out: UnsafeMutablePointer<[UInt8]>
    @usableFromInline var count = 0

    @inlinable
    init(start: UnsafeMutablePointer<UInt8>, out: UnsafeMutablePointer<[UInt8]>) {
        self.start = start
        self.out = out
    }

    /// Calls `body` with a buffer whose bytes end up appended to `out`, in order, when `body` returns.
    @inlinable
    public static func appending<R>(to out: inout [UInt8], _ body: (inout TextBuffer) throws -> R) rethrows -> R {
        try withUnsafeMutablePointer(to: &out) { out in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var text = TextBuffer(start: buffer.baseAddress.unsafelyUnwrapped, out: out)
                let result = try body(&text)
                text.flush()
                return result
            }
        }
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if count == Self.capacity { flush() }
        start[count] = byte
        count += 1
    }

    /// Appends `bytes`; more than the buffer holds go straight to the array, after what the buffer held.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if count + bytes.count > Self.capacity {
            flush()
            if bytes.count > Self.capacity { return out.pointee.append(contentsOf: bytes) }
        }
        guard let source = bytes.baseAddress else { return }
        // Most pieces are a few bytes (a key, a number): copied in two overlapping loads and stores, where a call to
        // memcpy costs more.
        let length = bytes.count
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(start + count)
        if length >= 8 && length <= 16 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + length - 8).storeBytes(of: (from + length - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        } else if length >= 4 && length < 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            (to + length - 4).storeBytes(of: (from + length - 4).loadUnaligned(as: UInt32.self), as: UInt32.self)
        } else if length < 4 {
            for index in 0..<length { start[count + index] = source[index] }
        } else {
            (start + count).update(from: source, count: length)
        }
        count += length
    }

    /// Appends the first `count` (at most 8) bytes of `word`, stored little-endian: a short piece known in advance
    /// (`true`, `false`, `null`) in one store.
    @inlinable @inline(__always)
    public mutating func append(word: UInt64, count length: Int) {
        if count + 8 > Self.capacity { flush() }
        UnsafeMutableRawPointer(start + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count += length
    }

    /// Appends the bytes of a literal.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends what the buffer holds to the array and empties it.
    @inlinable
    public mutating func flush() {
        guard count > 0 else { return }
        out.pointee.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        count = 0
    }
}
