/// Kenwood `$PKLSH`, a short FleetSync position report: a GLL's position with the reporting radio's fleet and unit
/// IDs.
///
///     $PKLSH,4000.0000,N,13500.0000,E,021720,A,100,2000,*2C
///
///            1       2 3        4 5         6 7   8
///     $PKLSH,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,xxx,xxxx*hh
///
/// 1. 2. Latitude, `N`/`S`
/// 3. 4. Longitude, `E`/`W`
/// 5. UTC time
/// 6. Status: `A` valid, `V` not valid
/// 7. Fleet, 100 to 349
/// 8. Unit ID, 1000 to 4999
///
/// Radios end the sentence with one more, empty, field.
public struct PKLSH: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pklsh) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PKLSH,4000.0000,N,13500.0000,E,021720,A,100,2000,*2C"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Fields 1 to 6.
    public var fix: KenwoodShortFix
    public var fleet: Int?
    public var unitID: Int?

    public init(fix: KenwoodShortFix, fleet: Int?, unitID: Int?) {
        self.fix = fix
        self.fleet = fleet
        self.unitID = unitID
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        fix = KenwoodShortFix(reading: &fields)
        fleet = fields.integer(in: 0...999)
        unitID = fields.integer(in: 0...9999)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        fix.describe(to: &sink)
        sink.field("fleet", fleet)
        sink.field("unit_id", unitID)
    }
}

/// Fields 1 to 6 of Kenwood's `$PKLSH` and `$PKNSH`, as a GLL has them: position, time and status.
public struct KenwoodShortFix: Hashable, Sendable {
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    public var time: UTCTime?
    public var isValid: Bool?

    public init(latitude: FixedPoint?, longitude: FixedPoint?, time: UTCTime?, isValid: Bool?) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.isValid = isValid
    }

    /// Reads fields 1 to 6.
    @inline(__always)
    init(reading fields: inout FieldReader) {
        latitude = fields.latitude()
        longitude = fields.longitude()
        time = fields.time()
        isValid = fields.status()
    }

    func describe(to sink: inout some SentenceFieldSink) {
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("time", time)
        sink.field("valid", isValid)
    }
}
