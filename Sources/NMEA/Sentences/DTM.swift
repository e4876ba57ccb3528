/// DTM, datum reference: the datum positions are given in, and its offset from the reference datum.
///
///     $GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6F
///
///            1   2 3   4 5   6 7   8
///     $--DTM,ccc,a,x.x,a,x.x,a,x.x,ccc*hh
///
/// 1. Local datum: `W84` WGS 84, `W72` WGS 72, `S85` SGS 85, `P90` PE 90, `999` user defined, or an IHO code
/// 2. Local datum subdivision code
/// 3. 4. Latitude offset, minutes, `N`/`S`
/// 5. 6. Longitude offset, minutes, `E`/`W`
/// 7. Altitude offset, metres
/// 8. Reference datum
public struct DTM: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.dtm) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPDTM,W84,,0.0,N,0.0,E,0.0,W84*6F"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var localDatum: ShortCode
    public var subdivision: ShortCode
    /// Minutes of arc, negative south.
    public var latitudeOffsetMinutes: FixedPoint?
    /// Minutes of arc, negative west.
    public var longitudeOffsetMinutes: FixedPoint?
    public var altitudeOffsetMeters: FixedPoint?
    public var referenceDatum: ShortCode

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, localDatum: ShortCode, subdivision: ShortCode = "",
        latitudeOffsetMinutes: FixedPoint?, longitudeOffsetMinutes: FixedPoint?, altitudeOffsetMeters: FixedPoint?,
        referenceDatum: ShortCode
    ) {
        self.talker = talker
        self.localDatum = localDatum
        self.subdivision = subdivision
        self.latitudeOffsetMinutes = latitudeOffsetMinutes
        self.longitudeOffsetMinutes = longitudeOffsetMinutes
        self.altitudeOffsetMeters = altitudeOffsetMeters
        self.referenceDatum = referenceDatum
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        localDatum = fields.code()
        subdivision = fields.code()
        latitudeOffsetMinutes = fields.signed(positive: "N", negative: "S")
        longitudeOffsetMinutes = fields.signed(positive: "E", negative: "W")
        altitudeOffsetMeters = fields.fixedPoint()
        referenceDatum = fields.code()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("datum", code: localDatum)
        if !subdivision.isEmpty { sink.field("subdivision", code: subdivision) }
        sink.field("lat_offset_minutes", latitudeOffsetMinutes)
        sink.field("lon_offset_minutes", longitudeOffsetMinutes)
        sink.field("alt_offset", altitudeOffsetMeters)
        sink.field("reference_datum", code: referenceDatum)
    }
}
