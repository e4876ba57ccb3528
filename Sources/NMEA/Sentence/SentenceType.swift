/// What a sentence is: the letters after the talker (`RMC` in `$GPRMC`), or the whole address of a proprietary
/// sentence (`PGRME`, `PUBX`).
///
/// Up to eight letters are kept, packed into an integer so that comparing types costs one instruction.
public struct SentenceType: RawRepresentable, Hashable, Sendable {
    /// The ASCII letters packed little-endian, first letter in the low byte, unused bytes zero.
    public var rawValue: UInt64

    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A type from its letters, for example `SentenceType("RMC")`. Letters past the eighth are ignored.
    public init(_ letters: String) {
        var value: UInt64 = 0
        for (offset, byte) in letters.utf8.prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(offset)) }
        self.init(rawValue: value)
    }

    @inlinable
    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8 = 0, _ e: UInt8 = 0) {
        rawValue = UInt64(a) | UInt64(b) << 8 | UInt64(c) << 16 | UInt64(d) << 24 | UInt64(e) << 32
    }

    /// Packs `count` (at most 8) bytes starting at `start`.
    @inlinable
    init(bytes start: UnsafePointer<UInt8>, count: Int) {
        var value: UInt64 = 0
        for offset in 0..<min(count, 8) { value |= UInt64(start[offset]) << (8 * UInt64(offset)) }
        rawValue = value
    }

    @inlinable static func letters(_ text: StaticString) -> SentenceType {
        SentenceType(bytes: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    public static var rmc: SentenceType { .letters("RMC") }
    public static var gga: SentenceType { .letters("GGA") }
    public static var gsa: SentenceType { .letters("GSA") }
    public static var gsv: SentenceType { .letters("GSV") }
    public static var gll: SentenceType { .letters("GLL") }
    public static var vtg: SentenceType { .letters("VTG") }
    public static var zda: SentenceType { .letters("ZDA") }
    public static var gst: SentenceType { .letters("GST") }
    public static var gns: SentenceType { .letters("GNS") }
    public static var gbs: SentenceType { .letters("GBS") }
    public static var grs: SentenceType { .letters("GRS") }
    public static var txt: SentenceType { .letters("TXT") }
    public static var dtm: SentenceType { .letters("DTM") }
    public static var hdt: SentenceType { .letters("HDT") }
    public static var ths: SentenceType { .letters("THS") }
    /// u-blox `$PUBX`; the message (00, 03, 04) is its first field.
    public static var pubx: SentenceType { .letters("PUBX") }
    /// Garmin estimated error.
    public static var pgrme: SentenceType { .letters("PGRME") }
    /// Garmin altitude.
    public static var pgrmz: SentenceType { .letters("PGRMZ") }
    /// Garmin map datum.
    public static var pgrmm: SentenceType { .letters("PGRMM") }

    /// Calls `output` with each letter.
    @inlinable
    public func write(to output: (UInt8) -> Void) {
        var value = rawValue
        while value != 0 {
            output(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }
}

extension SentenceType: CustomStringConvertible {
    public var description: String {
        var text = ""
        write { text.unicodeScalars.append(Unicode.Scalar($0)) }
        return text
    }
}
