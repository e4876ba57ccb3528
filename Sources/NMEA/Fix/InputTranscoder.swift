/// How an input's text is encoded, as its first bytes tell: a UTF-16 byte-order mark, or none.
public enum InputEncoding: Sendable, Hashable {
    /// ASCII (or UTF-8): the bytes are read as they are. Any input that does not start with a UTF-16 mark.
    case ascii
    /// UTF-16, little-endian: it starts with `FF FE` (as Windows tools write "Unicode" text).
    case utf16LittleEndian
    /// UTF-16, big-endian: it starts with `FE FF`.
    case utf16BigEndian
}

/// ``FixReader``'s input stage: tells each input's encoding from its first bytes and hands the framer ASCII.
///
/// A UTF-16 input (with its byte-order mark) is transcoded as it streams: each code unit below 128 becomes its byte,
/// any other becomes `0x80`, a byte no sentence holds (NMEA is ASCII, so that only cuts a sentence short, as a
/// non-ASCII byte of a UTF-8 input would). A code unit split between two reads is carried over; the mark itself is
/// dropped. The transcoded bytes go through one buffer, allocated the first time a UTF-16 input is seen and then
/// reused: nothing is allocated per read or per sentence. Any other input passes through untouched.
struct InputTranscoder: ~Copyable {
    /// The encoding of the input being read, once its first bytes have told it.
    private(set) var encoding: InputEncoding?
    /// A first byte that may begin a mark (`FF` or `FE`), held until the second arrives.
    private var heldFirst: UInt8?
    /// The first byte of a UTF-16 code unit whose second is in the next read.
    private var oddByte: UInt8?
    /// Transcoded bytes on their way to the framer; allocated for the first UTF-16 input.
    private var buffer: UnsafeMutablePointer<UInt8>?

    /// The size of ``buffer``: the transcoded bytes of one read go to the framer in pieces of at most this many.
    static let capacity = 4096

    init() {}

    deinit { buffer?.deallocate() }

    /// Hands `feed` the ASCII bytes of `bytes`, the next part of the input, in one piece or several.
    mutating func transcode(_ bytes: UnsafeRawBufferPointer, _ feed: (UnsafeRawBufferPointer) -> Void) {
        var rest = bytes
        if encoding == nil && !detect(&rest, feed) { return }
        switch encoding {
        case .utf16LittleEndian?, .utf16BigEndian?: transcodeUTF16(rest, feed)
        case .ascii?, nil: if !rest.isEmpty { feed(rest) }
        }
    }

    /// Ends the input: a held first byte is handed on as it is, half a code unit dropped; the next input's first
    /// bytes tell its encoding afresh.
    /// - Returns: the input's encoding (`nil` for an input without a byte).
    @discardableResult
    mutating func finish(_ feed: (UnsafeRawBufferPointer) -> Void) -> InputEncoding? {
        if let first = heldFirst {
            encoding = .ascii
            withUnsafeBytes(of: first) { feed($0) }
        }
        defer { reset() }
        return encoding
    }

    /// Forgets the input in progress (its encoding, any held byte).
    mutating func reset() {
        encoding = nil
        heldFirst = nil
        oddByte = nil
    }

    /// Tells the encoding from the first two bytes, removing what it used from `rest` (a mark, or a first byte
    /// that it hands to `feed` itself). `false` while a lone first byte that may begin a mark is held.
    private mutating func detect(_ rest: inout UnsafeRawBufferPointer, _ feed: (UnsafeRawBufferPointer) -> Void)
        -> Bool
    {
        guard !rest.isEmpty else { return false }
        let first: UInt8
        if let held = heldFirst {
            first = held
        } else {
            first = rest[0]
            guard first == 0xFF || first == 0xFE else {
                encoding = .ascii
                return true
            }
            guard rest.count >= 2 else {
                heldFirst = first
                return false
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[1...])
        }
        heldFirst = nil
        switch (first, rest[0]) {
        case (0xFF, 0xFE): encoding = .utf16LittleEndian
        case (0xFE, 0xFF): encoding = .utf16BigEndian
        default:
            encoding = .ascii
            withUnsafeBytes(of: first) { feed($0) }
            return true
        }
        rest = UnsafeRawBufferPointer(rebasing: rest[1...])
        if buffer == nil { buffer = .allocate(capacity: InputTranscoder.capacity) }
        return true
    }

    private mutating func transcodeUTF16(_ bytes: UnsafeRawBufferPointer, _ feed: (UnsafeRawBufferPointer) -> Void) {
        guard let buffer, !bytes.isEmpty else { return }
        let bigEndian = encoding == .utf16BigEndian
        var count = 0
        var index = 0
        // (No local function for the unit: one capturing `count` would be boxed on the heap in a debug build.)
        while index < bytes.count {
            let first: UInt8
            if let odd = oddByte {
                first = odd
                oddByte = nil
            } else {
                guard index + 1 < bytes.count else {
                    oddByte = bytes[index]
                    break
                }
                first = bytes[index]
                index += 1
            }
            let second = bytes[index]
            index += 1
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
            buffer[count] = unit < 0x80 ? UInt8(truncatingIfNeeded: unit) : 0x80
            count += 1
            if count == InputTranscoder.capacity {
                feed(UnsafeRawBufferPointer(start: buffer, count: count))
                count = 0
            }
        }
        if count > 0 { feed(UnsafeRawBufferPointer(start: buffer, count: count)) }
    }
}
