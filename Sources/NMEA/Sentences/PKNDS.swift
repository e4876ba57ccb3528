/// Kenwood `$PKNDS`, an NXDN or DMR digital radio's position report: an RMC's fix with the reporting radio's unit ID
/// and status, as a Kenwood radio hands on a report received from another.
///
///     $PKNDS,124640,A,4954.1458,N,11923.5992,W,000.0,000.0,120223,19.20,W00,U00002,207,00,*29
///
///            1         2 3       4 5        6 7   8   9      10  11  12     13  14
///     $PKNDS,hhmmss.ss,A,ddmm.mm,a,dddmm.mm,a,x.x,x.x,ddmmyy,x.x,axx,Uxxxxx,xxx,xx*hh
///
///  1. to 11. As ``PKLDS``'s: time, status, latitude, longitude, speed (knots), course, date, magnetic variation, and
///     the variation's direction with the sentence version (`W00`)
/// 12. Unit ID: `U` and five digits (NXDN, 00001 to 65519) or eight (DMR, 00000001 to 16776415)
/// 13. Unit status, 001 to 255
/// 14. Extension, 00 to 99 (reserved)
///
/// Radios end the sentence with one more, empty, field.
public struct PKNDS: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pknds) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PKNDS,124640,A,4954.1458,N,11923.5992,W,000.0,000.0,120223,19.20,W00,U00002,207,00,*29"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Fields 1 to 9.
    public var fix: KenwoodFix
    /// Negative west.
    public var magneticVariationDegrees: FixedPoint?
    /// 0 to 15.
    public var sentenceVersion: Int?
    /// The number after the `U`.
    public var unitID: Int?
    public var unitStatus: Int?
    /// The extension field, reserved.
    public var reserved: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        fix: KenwoodFix, magneticVariationDegrees: FixedPoint?, sentenceVersion: Int?, unitID: Int?,
        unitStatus: Int?, reserved: Int?
    ) {
        self.fix = fix
        self.magneticVariationDegrees = magneticVariationDegrees
        self.sentenceVersion = sentenceVersion
        self.unitID = unitID
        self.unitStatus = unitStatus
        self.reserved = reserved
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        fix = KenwoodFix(reading: &fields)
        (magneticVariationDegrees, sentenceVersion) = fields.kenwoodVariationAndVersion()
        unitID = fields.kenwoodUnitID()
        unitStatus = fields.integer(in: 0...255)
        reserved = fields.integer(in: 0...99)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        fix.describe(to: &sink)
        sink.field("magnetic_variation", magneticVariationDegrees)
        sink.field("version", sentenceVersion)
        sink.field("unit_id", unitID)
        sink.field("unit_status", unitStatus)
        sink.field("reserved", reserved)
    }
}

extension FieldReader {
    /// An NXDN or DMR unit ID, `U` and up to eight digits (`U00002`): the number, or `nil` when empty. Anything else
    /// is an ``FieldError/notANumber`` error.
    @inline(never)
    mutating func kenwoodUnitID() -> Int? {
        let start = position
        guard let field = nextField(), !field.isEmpty else { return nil }
        let bytes = field.bytes
        guard bytes[0] == UInt8(ascii: "U"), bytes.count > 1, bytes.count <= 9 else {
            reject(.notANumber, fieldAt: start)
            return nil
        }
        var value = 0
        for offset in 1..<bytes.count {
            let digit = bytes[offset] &- UInt8(ascii: "0")
            guard digit < 10 else {
                reject(.notANumber, fieldAt: start)
                return nil
            }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
