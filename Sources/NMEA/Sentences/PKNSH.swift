/// Kenwood `$PKNSH`, a short NXDN or DMR position report: a GLL's position with the reporting radio's unit ID.
///
///     $PKNSH,4000.0000,N,13500.0000,E,021720,A,U00001,*55
///
///            1       2 3        4 5         6 7
///     $PKNSH,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,Uxxxxx*hh
///
/// 1. 2. Latitude, `N`/`S`
/// 3. 4. Longitude, `E`/`W`
/// 5. UTC time
/// 6. Status: `A` valid, `V` not valid
/// 7. Unit ID: `U` and five digits (NXDN) or eight (DMR)
///
/// Radios end the sentence with one more, empty, field.
public struct PKNSH: DecodableSentence, Hashable, Sendable {
    public static var kind: SentenceKind { .pknsh }
    public static var address: SentenceAddress { .proprietary(.pknsh) }
    public static var sample: String {
        "$PKNSH,4000.0000,N,13500.0000,E,021720,A,U00001,*55"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    public var time: UTCTime?
    public var isValid: Bool?
    /// The number after the `U`.
    public var unitID: Int?

    public init(latitude: FixedPoint?, longitude: FixedPoint?, time: UTCTime?, isValid: Bool?, unitID: Int?) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.isValid = isValid
        self.unitID = unitID
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        latitude = fields.latitude()
        longitude = fields.longitude()
        time = fields.time()
        isValid = fields.status()
        unitID = fields.kenwoodUnitID()
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("time", time)
        sink.field("valid", isValid)
        sink.field("unit_id", unitID)
    }
}
