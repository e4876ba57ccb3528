/// Kenwood `$PKLDS`, a FleetSync position report: an RMC's fix with the reporting radio's fleet and unit IDs and its
/// status, as a Kenwood radio hands on a report received from another.
///
///     $PKLDS,001235,A,3544.6650,N,13940.1900,E,015.0,038.8,110498,10.80,W00,100,2000,15,00,*7E
///
///            1         2 3       4 5        6 7   8   9      10  11  12  13   14 15
///     $PKLDS,hhmmss.ss,A,ddmm.mm,a,dddmm.mm,a,x.x,x.x,ddmmyy,x.x,axx,xxx,xxxx,xx,xx*hh
///
///  1. UTC time
///  2. Status: `A` valid, `V` not valid
///  3. 4. Latitude, `N`/`S`
///  5. 6. Longitude, `E`/`W`
///  7. Speed over ground, knots
///  8. Course over ground, degrees true
///  9. UTC date, `ddmmyy`
/// 10. Magnetic variation, degrees
/// 11. The variation's direction, `E`/`W` (west is negative), followed by the sentence version, `00` to `15`
/// 12. Fleet, 100 to 349
/// 13. Unit ID, 1000 to 4999
/// 14. Unit status, 10 to 99
/// 15. Extension, 00 to 99 (reserved)
///
/// Radios end the sentence with one more, empty, field.
public struct PKLDS: DecodableSentence, Hashable, Sendable {
    public static var kind: SentenceKind { .pklds }
    public static var address: SentenceAddress { .proprietary(.pklds) }
    public static var sample: String {
        "$PKLDS,001235,A,3544.6650,N,13940.1900,E,015.0,038.8,110498,10.80,W00,100,2000,15,00,*7E"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Fields 1 to 11.
    public var fix: KenwoodFix
    public var fleet: Int?
    public var unitID: Int?
    public var unitStatus: Int?
    /// The extension field, reserved.
    public var reserved: Int?

    public init(fix: KenwoodFix, fleet: Int?, unitID: Int?, unitStatus: Int?, reserved: Int?) {
        self.fix = fix
        self.fleet = fleet
        self.unitID = unitID
        self.unitStatus = unitStatus
        self.reserved = reserved
    }

    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        fix = KenwoodFix(reading: &fields)
        fleet = fields.integer(in: 0...999)
        unitID = fields.integer(in: 0...9999)
        unitStatus = fields.integer(in: 0...99)
        reserved = fields.integer(in: 0...99)
        try fields.requireRead(1)
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        fix.describe(to: &sink)
        sink.field("fleet", fleet)
        sink.field("unit_id", unitID)
        sink.field("unit_status", unitStatus)
        sink.field("reserved", reserved)
    }
}

/// The part of Kenwood's `$PKLDS` and `$PKNDS` that is an RMC (fields 1 to 11 of both).
public struct KenwoodFix: Hashable, Sendable {
    public var time: UTCTime?
    public var isValid: Bool?
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    public var speedKnots: FixedPoint?
    public var courseDegrees: FixedPoint?
    public var date: UTCDate?
    /// Negative west.
    public var magneticVariationDegrees: FixedPoint?
    /// The sentence version after the variation's direction (`W00`): 0 to 15.
    public var sentenceVersion: Int?

    public init(
        time: UTCTime?, isValid: Bool?, latitude: FixedPoint?, longitude: FixedPoint?, speedKnots: FixedPoint?,
        courseDegrees: FixedPoint?, date: UTCDate?, magneticVariationDegrees: FixedPoint?, sentenceVersion: Int?
    ) {
        self.time = time
        self.isValid = isValid
        self.latitude = latitude
        self.longitude = longitude
        self.speedKnots = speedKnots
        self.courseDegrees = courseDegrees
        self.date = date
        self.magneticVariationDegrees = magneticVariationDegrees
        self.sentenceVersion = sentenceVersion
    }

    /// Reads fields 1 to 11.
    @inline(__always)
    init(reading fields: inout FieldReader) {
        time = fields.time()
        isValid = fields.status()
        latitude = fields.latitude()
        longitude = fields.longitude()
        speedKnots = fields.fixedPoint()
        courseDegrees = fields.fixedPoint()
        date = fields.date()
        var variation = fields.fixedPoint()
        let errorsBefore = fields.errors.count
        let (isWest, version) = fields.kenwoodDirectionAndVersion()
        if isWest == true, let magnitude = variation?.significand { variation?.significand = -abs(magnitude) }
        // A bad direction leaves the variation's sign unknown: it is absent too.
        magneticVariationDegrees = fields.errors.count == errorsBefore ? variation : nil
        sentenceVersion = version
    }

    func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("valid", isValid)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("speed_knots", speedKnots)
        sink.field("course", courseDegrees)
        sink.field("date", date)
        sink.field("magnetic_variation", magneticVariationDegrees)
        sink.field("version", sentenceVersion)
    }
}

extension FieldReader {
    /// Kenwood's field of a direction letter and a two-digit version together (`W00`): whether the letter is `W`
    /// (`nil` without one), and the version. A letter other than `E`/`W`, or more than two characters after it that
    /// are not digits, is an ``FieldError/unexpectedCharacter`` error: the field is then absent.
    @inline(never)
    mutating func kenwoodDirectionAndVersion() -> (isWest: Bool?, version: Int?) {
        let start = position
        guard let field = nextField(), !field.isEmpty else { return (nil, nil) }
        let bytes = field.bytes
        var isWest: Bool?
        var offset = 0
        if bytes[0] == UInt8(ascii: "E") || bytes[0] == UInt8(ascii: "W") {
            isWest = bytes[0] == UInt8(ascii: "W")
            offset = 1
        }
        var version: Int?
        while offset < bytes.count {
            let digit = bytes[offset] &- UInt8(ascii: "0")
            guard digit < 10, offset < 3 else {
                reject(.unexpectedCharacter, fieldAt: start)
                return (nil, nil)
            }
            version = (version ?? 0) * 10 + Int(digit)
            offset += 1
        }
        return (isWest, version)
    }
}
