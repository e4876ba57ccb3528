/// XTE, cross-track error, measured.
///
///     $GPXTE,A,A,0.67,L,N*6F
///
///            1 2 3   4 5 6
///     $--XTE,A,A,x.x,a,N,m*hh
///
/// 1. Status: `A` valid, `V` Loran-C blink or SNR warning (general warning)
/// 2. Status: `A` valid, `V` Loran-C cycle lock warning
/// 3. Cross-track error, magnitude
/// 4. Direction to steer: `L`/`R`
/// 5. Units: `N` nautical miles (`K` kilometres, sent by some)
/// 6. FAA mode indicator (NMEA 2.3 and later)
public struct XTE: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.xte) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPXTE,A,A,0.67,L,N*6F"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var isValid: Bool?
    public var isCycleLocked: Bool?
    public var crossTrackError: FixedPoint?
    public var steer: SteeringDirection?
    /// `N` or `K`.
    public var units: UInt8?
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, isValid: Bool?, isCycleLocked: Bool?, crossTrackError: FixedPoint?,
        steer: SteeringDirection?, units: UInt8? = UInt8(ascii: "N"), mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.isValid = isValid
        self.isCycleLocked = isCycleLocked
        self.crossTrackError = crossTrackError
        self.steer = steer
        self.units = units
        self.mode = mode
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        isValid = fields.status()
        isCycleLocked = fields.status()
        crossTrackError = fields.fixedPoint()
        steer = fields.steeringDirection()
        units = fields.letter(in: "NK")
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("valid", isValid)
        sink.field("cycle_lock", isCycleLocked)
        if units == UInt8(ascii: "K") {
            sink.field("cross_track_error_km", crossTrackError)
        } else {
            sink.field("cross_track_error_nm", crossTrackError)
        }
        sink.field("steer", letter: steer?.rawValue)
        sink.field("mode", letter: mode?.rawValue)
    }
}
