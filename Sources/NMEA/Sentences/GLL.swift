/// GLL, geographic position: latitude, longitude, time and status.
///
///     $GPGLL,4916.45,N,12311.12,W,225444,A,*1D
///
///            1       2 3        4 5         6 7
///     $--GLL,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,a*hh
///
/// 1. 2. Latitude, `N`/`S`
/// 3. 4. Longitude, `E`/`W`
/// 5. UTC time
/// 6. Status: `A` valid, `V` not valid
/// 7. FAA mode indicator (NMEA 2.3 and later)
public struct GLL: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gll) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGLL,4916.45,N,12311.12,W,225444,A,*1D"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    public var time: UTCTime?
    /// `true` for status `A`.
    public var isValid: Bool
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, latitude: FixedPoint?, longitude: FixedPoint?, time: UTCTime?, isValid: Bool,
        mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.isValid = isValid
        self.mode = mode
    }

    /// The one decoding body: any form, field by field, with exact errors.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        latitude = fields.latitude()
        longitude = fields.longitude()
        time = fields.time()
        switch fields.letter(in: "AV") {
        case UInt8(ascii: "A"): isValid = true
        case nil: isValid = fields.ranPastEnd && latitude != nil  // NMEA 1.5 sends only the position: valid
        default: isValid = false
        }
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("time", time)
        sink.field("status", letter: UInt8(ascii: isValid ? "A" : "V"))
        sink.field("mode", letter: mode?.rawValue)
    }
}
