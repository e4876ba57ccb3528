/// A Unix time written in digits, as receive times are: `1700000000` or `1700000000.123` (seconds) or
/// `1700000000123` (milliseconds), read a byte at a time.
///
/// Seconds or milliseconds is decided by magnitude: a whole part of 10¹¹ or more is milliseconds (10¹¹ seconds is
/// the year 5138, 10¹¹ milliseconds March 1973). Fraction digits past the third are dropped (the millisecond is the
/// unit kept); a fraction on milliseconds is dropped too.
struct UnixTimeDigits: Sendable {
    private var whole: Int64 = 0
    private var wholeDigits = 0
    private var fraction: Int64 = 0
    private var fractionDigits = 0
    private var sawPoint = false

    /// The most digits of a whole part (18 fit in an `Int64`).
    static let maximumDigits = 18

    /// Takes `byte`: `false` when it cannot continue the number (not a digit or a first `.`, or too many digits).
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 {
            if sawPoint {
                if fractionDigits < 3 {
                    fraction = fraction * 10 + Int64(digit)
                    fractionDigits += 1
                }
                return true
            }
            guard wholeDigits < UnixTimeDigits.maximumDigits else { return false }
            whole = whole * 10 + Int64(digit)
            wholeDigits += 1
            return true
        }
        if byte == UInt8(ascii: "."), !sawPoint, wholeDigits > 0 {
            sawPoint = true
            return true
        }
        return false
    }

    /// The digits as a whole number, or `nil` without a digit or with a point.
    var wholeNumber: Int64? { wholeDigits > 0 && !sawPoint ? whole : nil }

    /// The number of digits before any point.
    var digitCount: Int { wholeDigits }

    /// The time in milliseconds since 1970, or `nil` without a whole digit.
    var milliseconds: Int64? {
        guard wholeDigits > 0 else { return nil }
        if whole >= 100_000_000_000 { return whole }
        var milliseconds = fraction
        for _ in fractionDigits..<3 { milliseconds *= 10 }
        return whole * 1000 + milliseconds
    }
}

/// What an NMEA 4.10 TAG block says: `\c:1700000000123,s:GP0001,n:42*hh\` before a sentence.
///
/// The block starts and ends with `\`; its parameters are `code:value`, comma-separated; `*hh` is the XOR of every
/// byte between the opening `\` and the `*`. The codes of the standard are `c` (Unix time: seconds in the standard,
/// milliseconds as many marine loggers write it; ``UnixTimeDigits`` tells them apart), `d` (destination), `g`
/// (grouping), `n` (line count), `r` (relative time), `s` (source), `t` (text) and `i` (information); `c`, `g`, `n`
/// and `s` are kept, the others read and passed over, and any other code is counted and passed over.
public struct TagBlock: Sendable, Hashable {
    /// The `c:` parameter in milliseconds since 1970-01-01 UTC.
    public var receivedMilliseconds: Int64?
    /// The `s:` parameter: the source's name (its first eight characters; the standard allows fifteen, and
    /// talker-and-number names such as `GP0001` fit).
    public var source: ShortCode?
    /// The `n:` parameter: the line count.
    public var lineCount: Int?
    /// The `g:` parameter: which sentence of which group this is (`g:1-2-1234`).
    public var group: TagGroup?
    /// How many parameters had a code the standard does not define.
    public var unknownParameters = 0

    /// A block with no parameters.
    public init() {}

    /// The longest TAG block read, from the opening to the closing `\` (both excluded). The standard keeps whole
    /// lines to 82 characters; loggers with several parameters go past that, so the limit is a generous 100.
    public static let maximumLength = 100
}

/// A TAG block's `g:` parameter (`g:1-2-1234`): sentence `number` of `count` in group `id`. A shore network marks
/// the sentences of one multi-sentence message with one group, which tells them from another station's sentences
/// with the same sequential message ID.
public struct TagGroup: Sendable, Hashable {
    private let storedNumber: UInt8
    private let storedCount: UInt8
    private let storedID: UInt32
    /// This sentence's number in the group, from 1.
    public var number: Int { Int(storedNumber) }
    /// The number of sentences in the group.
    public var count: Int { Int(storedCount) }
    /// The group's identifier.
    public var id: Int { Int(storedID) }

    /// Sentence `number` (1…`count`) of `count` (1…99) in group `id` (0…4294967295), or `nil` outside those.
    public init?(number: Int, count: Int, id: Int) {
        guard (1...99).contains(count), (1...count).contains(number), (0...Int(UInt32.max)).contains(id) else {
            return nil
        }
        storedNumber = UInt8(number)
        storedCount = UInt8(count)
        storedID = UInt32(id)
    }
}

/// Reads a `g:` value (`1-2-1234`) a byte at a time: three whole numbers joined by `-`.
struct TagGroupDigits: Sendable {
    private var values: (Int, Int, Int) = (0, 0, 0)
    private var part = 0
    private var digits = 0

    /// Takes `byte`: `false` when it cannot continue the value.
    mutating func take(_ byte: UInt8) -> Bool {
        if byte == UInt8(ascii: "-") {
            guard digits > 0, part < 2 else { return false }
            part += 1
            digits = 0
            return true
        }
        let digit = byte &- UInt8(ascii: "0")
        guard digit < 10, digits < 10 else { return false }
        digits += 1
        switch part {
        case 0: values.0 = values.0 * 10 + Int(digit)
        case 1: values.1 = values.1 * 10 + Int(digit)
        default: values.2 = values.2 * 10 + Int(digit)
        }
        return true
    }

    /// The group, once all three numbers were read and are in range.
    var group: TagGroup? {
        guard part == 2, digits > 0 else { return nil }
        return TagGroup(number: values.0, count: values.1, id: values.2)
    }
}

/// Why a TAG block was not taken.
public enum TagBlockError: Error, Sendable, Hashable {
    /// Its checksum did not match.
    case checksumMismatch(calculated: UInt8, found: UInt8)
    /// It did not have the form `\code:value,…*hh\`: no `*`, a parameter without `:`, a `c:`/`n:` that is not a
    /// number, or a stop byte (a line ending, `$`, `!`, binary data) before its closing `\`.
    case malformed
    /// It ran past ``TagBlock/maximumLength`` without closing.
    case overlong
}

/// Reads one TAG block a byte at a time, from the byte after its opening `\`, so that it may be split across reads.
struct TagBlockReader: Sendable {
    /// What a byte did.
    enum Step: Equatable {
        /// Taken; the block goes on.
        case more
        /// Taken: it was the closing `\` of a block read whole (its checksum may still be wrong: see ``finish()``).
        case closed
        /// Not taken: it cannot be in a TAG block (a stop byte); the block is malformed and the byte is for the
        /// framer.
        case stop
        /// Taken, and the block is malformed, overlong or closed after a failure: ``result`` says which.
        case failed
    }

    private enum Phase {
        case code, colon, value, checksumHigh, checksumLow, close
        /// Overlong or malformed: passing over bytes up to the closing `\`.
        case skipping
    }

    private var phase = Phase.code
    private var xor: UInt8 = 0
    private var found: UInt8 = 0
    /// The bytes taken so far (after the opening `\`).
    private(set) var length = 0
    private var code: UInt8 = 0
    private var number = UnixTimeDigits()
    private var groupDigits = TagGroupDigits()
    private var count = 0
    private var source: UInt64 = 0
    private(set) var block = TagBlock()
    /// Set once the block has failed.
    private(set) var error: TagBlockError?

    /// `true` for a byte that can never be in a TAG block: ``ByteScan/isStop(_:)``'s bytes.
    @inline(__always)
    static func isStop(_ byte: UInt8) -> Bool { ByteScan.isStop(byte) }

    /// Takes one byte.
    mutating func take(_ byte: UInt8) -> Step {
        if TagBlockReader.isStop(byte) {
            if error == nil { error = .malformed }
            return .stop
        }
        length += 1
        if phase == .skipping { return byte == UInt8(ascii: "\\") ? .failed : .more }
        if length > TagBlock.maximumLength + 1 { return fail(.overlong, byte) }
        switch phase {
        case .code:
            if byte == UInt8(ascii: "*") && length == 1 {
                phase = .checksumHigh
                return .more
            }
            guard isCodeByte(byte) else { return fail(.malformed, byte) }
            code = byte
            phase = .colon
        case .colon:
            guard byte == UInt8(ascii: ":") else { return fail(.malformed, byte) }
            number = UnixTimeDigits()
            groupDigits = TagGroupDigits()
            count = 0
            source = 0
            phase = .value
        case .value:
            if let step = takeValue(byte) { return step }
        case .checksumHigh, .checksumLow:
            guard let digit = Hex.value(of: byte) else { return fail(.malformed, byte) }
            found = found << 4 | digit
            phase = phase == .checksumHigh ? .checksumLow : .close
            return .more
        case .close:
            guard byte == UInt8(ascii: "\\") else { return fail(.malformed, byte) }
            if found != xor {
                error = .checksumMismatch(calculated: xor, found: found)
                return .failed
            }
            return .closed
        case .skipping:
            break
        }
        xor ^= byte
        return .more
    }

    /// A byte of a parameter's value, or the `,` or `*` after it: the step when it ends the byte's handling, `nil`
    /// when the byte goes into the checksum.
    @inline(__always)
    private mutating func takeValue(_ byte: UInt8) -> Step? {
        switch byte {
        case UInt8(ascii: ","):
            guard endParameter() else { return fail(.malformed, byte) }
            phase = .code
        case UInt8(ascii: "*"):
            guard endParameter() else { return fail(.malformed, byte) }
            phase = .checksumHigh
            return .more
        case UInt8(ascii: "\\"):
            return fail(.malformed, byte)
        default:
            count += 1
            switch code {
            case UInt8(ascii: "c"), UInt8(ascii: "n"):
                guard number.take(byte) else { return fail(.malformed, byte) }
            case UInt8(ascii: "g"):
                guard groupDigits.take(byte) else { return fail(.malformed, byte) }
            case UInt8(ascii: "s"):
                if count <= 8 { source |= UInt64(byte) << (8 * UInt64(count - 1)) }
            default:
                break
            }
        }
        return nil
    }

    /// Marks the block failed; `byte`, if it is the closing `\`, ends it, else the rest up to the `\` is passed over.
    private mutating func fail(_ error: TagBlockError, _ byte: UInt8) -> Step {
        if self.error == nil { self.error = error }
        if byte == UInt8(ascii: "\\") { return .failed }
        phase = .skipping
        return .more
    }

    /// A parameter code: a lower-case letter (the standard's are all lower case).
    private func isCodeByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26
    }

    /// Keeps the parameter just read; `false` when its value does not read.
    private mutating func endParameter() -> Bool {
        switch code {
        case UInt8(ascii: "c"):
            guard let milliseconds = number.milliseconds else { return false }
            block.receivedMilliseconds = milliseconds
        case UInt8(ascii: "n"):
            guard let value = number.wholeNumber else { return false }
            block.lineCount = Int(value)
        case UInt8(ascii: "s"):
            block.source = ShortCode(rawValue: source)
        case UInt8(ascii: "g"):
            guard let group = groupDigits.group else { return false }
            block.group = group
        case UInt8(ascii: "d"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "i"):
            break
        default:
            block.unknownParameters += 1
        }
        return true
    }
}

extension TagBlock {
    /// The TAG block at the start of `line` (its first byte a `\`), or `nil` when there is none or it does not read.
    /// The same reader as the framer's.
    /// - Complexity: O(*n*) in the block's length.
    public static func leading(_ line: UnsafeRawBufferPointer) -> TagBlock? {
        guard line.count > 1, line[0] == UInt8(ascii: "\\") else { return nil }
        var reader = TagBlockReader()
        for byte in line.dropFirst() {
            switch reader.take(byte) {
            case .more: continue
            case .closed: return reader.block
            case .stop, .failed: return nil
            }
        }
        return nil
    }
}

extension TagBlock {
    /// Writes the TAG block `\c:<milliseconds>*hh\` (the receive time in milliseconds since 1970, the form marine
    /// loggers write) to `output`, for a sentence to follow.
    /// - Complexity: O(1); no allocation.
    public static func write(receivedMilliseconds milliseconds: Int64, to output: (UInt8) -> Void) {
        var xor = UInt8(ascii: "c") ^ UInt8(ascii: ":")
        output(UInt8(ascii: "\\"))
        output(UInt8(ascii: "c"))
        output(UInt8(ascii: ":"))
        DecimalFormatter.write(Int(milliseconds)) { digit in
            xor ^= digit
            output(digit)
        }
        NMEAChecksum.write(xor, to: output)
        output(UInt8(ascii: "\\"))
    }
}

extension Sentence {
    /// Writes the sentence as framed: its bytes, then `*hh` (upper-case digits) when it carried a checksum.
    /// - Complexity: O(*n*) in its length; no allocation.
    public func write(to output: (UInt8) -> Void) {
        // An index loop: iterating the buffer's slice runs unspecialized generic code in debug builds.
        for index in 0..<bytes.count { output(bytes[index]) }
        if let checksum { NMEAChecksum.write(checksum, to: output) }
    }
}
