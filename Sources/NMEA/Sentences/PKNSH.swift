/// Kenwood `$PKNSH`, a short NXDN or DMR position report: a GLL's position with the reporting radio's unit ID.
///
///     $PKNSH,4000.0000,N,13500.0000,E,021720,A,U00001,*55
///
///            1       2 3        4 5         6 7
///     $PKNSH,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,Uxxxxx*hh
///
/// 1. to 6. As ``PKLSH``'s: latitude, longitude, time, status
/// 7. Unit ID: `U` and five digits (NXDN) or eight (DMR)
///
/// Radios end the sentence with one more, empty, field.
public struct PKNSH: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pknsh) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PKNSH,4000.0000,N,13500.0000,E,021720,A,U00001,*55"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Fields 1 to 6, as ``PKLSH``'s.
    public var fix: KenwoodShortFix
    /// The number after the `U`.
    public var unitID: Int?

    public init(fix: KenwoodShortFix, unitID: Int?) {
        self.fix = fix
        self.unitID = unitID
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        fix = KenwoodShortFix(reading: &fields)
        unitID = fields.kenwoodUnitID()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        fix.describe(to: &sink)
        sink.field("unit_id", unitID)
    }
}
