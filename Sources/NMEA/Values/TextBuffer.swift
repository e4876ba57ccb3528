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
    /// How many times the buffer was flushed: a piece written between two readings of it with none in between lies
    /// whole in the buffer (``append(memo:key:_:)``).
    @usableFromInline var flushes = 0

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
        flushes &+= 1
    }

    /// Appends the text `write` appends for a value whose bits are `key`; when `memo` holds the text written for the
    /// same key, appends that instead, without calling `write`. Keeps what `write` appended in `memo` when it is at
    /// most ``TextMemo/capacity`` bytes. A memo must be used with one `write` (one element, one format) only.
    @inlinable @inline(__always)
    public mutating func append(memo: inout TextMemo, key: UInt64, _ write: (inout TextBuffer) -> Void) {
        if memo.count != 0 && memo.key == key {
            if count + TextMemo.capacity > Self.capacity { flush() }
            memo.copy(to: start + count)
            count += Int(memo.count)
            return
        }
        // Room for a memo's worth at once, so that text that fits a memo is written without a flush in its middle.
        if count + TextMemo.capacity > Self.capacity { flush() }
        let before = count
        let flushesBefore = flushes
        write(&self)
        let length = count - before
        if flushes == flushesBefore && length > 0 && length <= TextMemo.capacity {
            memo.keep(start + before, count: length, key: key)
        } else {
            memo.count = 0
        }
    }
}

/// Text written for a value, kept with the value's bits (``TextBuffer/append(memo:key:_:)``), so that the same value
/// again is written by copying it: a receiver repeats most of a point's numbers from one point to the next (its
/// DOPs, satellite count and geoid separation, often its altitude and speed), and a copy costs a fraction of writing
/// a number again. Holds at most ``capacity`` bytes; longer text is written each time.
public struct TextMemo: Sendable {
    /// The most bytes a memo keeps: an element with its tags and a number of up to 17 digits.
    public static let capacity = 48
    @usableFromInline var key: UInt64 = 0
    /// How many bytes are kept; 0 when none are.
    @usableFromInline var count: UInt8 = 0
    /// The text, in three 16-byte words: kept and copied with three loads and three stores.
    @usableFromInline var words: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>) = (.zero, .zero, .zero)

    /// An empty memo.
    public init() {}

    /// Keeps the `count` bytes at `text` as the text of `key`. Reads all ``capacity`` bytes at `text` (the buffer has
    /// that much room), of which those past `count` are not used.
    @inlinable @inline(__always)
    mutating func keep(_ text: UnsafePointer<UInt8>, count length: Int, key: UInt64) {
        let from = UnsafeRawPointer(text)
        words = (
            from.loadUnaligned(as: SIMD16<UInt8>.self), from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self),
            from.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)
        )
        count = UInt8(length)
        self.key = key
    }

    /// Writes all ``capacity`` bytes at `destination`, of which the first `count` are the text.
    @inlinable @inline(__always)
    func copy(to destination: UnsafeMutablePointer<UInt8>) {
        let to = UnsafeMutableRawPointer(destination)
        to.storeBytes(of: words.0, as: SIMD16<UInt8>.self)
        to.storeBytes(of: words.1, toByteOffset: 16, as: SIMD16<UInt8>.self)
        to.storeBytes(of: words.2, toByteOffset: 32, as: SIMD16<UInt8>.self)
    }
}
