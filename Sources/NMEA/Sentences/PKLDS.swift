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
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pklds) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PKLDS,001235,A,3544.6650,N,13940.1900,E,015.0,038.8,110498,10.80,W00,100,2000,15,00,*7E"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Fields 1 to 9.
    public var fix: KenwoodFix
    /// Negative west.
    public var magneticVariationDegrees: FixedPoint?
    /// 0 to 15.
    public var sentenceVersion: Int?
    public var fleet: Int?
    public var unitID: Int?
    public var unitStatus: Int?
    /// The extension field, reserved.
    public var reserved: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        fix: KenwoodFix, magneticVariationDegrees: FixedPoint?, sentenceVersion: Int?, fleet: Int?, unitID: Int?,
        unitStatus: Int?, reserved: Int?
    ) {
        self.fix = fix
        self.magneticVariationDegrees = magneticVariationDegrees
        self.sentenceVersion = sentenceVersion
        self.fleet = fleet
        self.unitID = unitID
        self.unitStatus = unitStatus
        self.reserved = reserved
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        fix = KenwoodFix(reading: &fields)
        (magneticVariationDegrees, sentenceVersion) = fields.kenwoodVariationAndVersion()
        fleet = fields.integer(in: 0...999)
        unitID = fields.integer(in: 0...9999)
        unitStatus = fields.integer(in: 0...99)
        reserved = fields.integer(in: 0...99)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        fix.describe(to: &sink)
        sink.field("magnetic_variation", magneticVariationDegrees)
        sink.field("version", sentenceVersion)
        sink.field("fleet", fleet)
        sink.field("unit_id", unitID)
        sink.field("unit_status", unitStatus)
        sink.field("reserved", reserved)
    }
}

/// Fields 1 to 9 of Kenwood's `$PKLDS`, `$PKNDS` and `$PKWDWPL`, as an RMC has them: time, status, position, speed,
/// course and date.
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

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, isValid: Bool?, latitude: FixedPoint?, longitude: FixedPoint?, speedKnots: FixedPoint?,
        courseDegrees: FixedPoint?, date: UTCDate?
    ) {
        self.time = time
        self.isValid = isValid
        self.latitude = latitude
        self.longitude = longitude
        self.speedKnots = speedKnots
        self.courseDegrees = courseDegrees
        self.date = date
    }

    /// Reads fields 1 to 9.
    @inline(__always)
    init(reading fields: inout FieldReader) {
        time = fields.time()
        isValid = fields.status()
        latitude = fields.latitude()
        longitude = fields.longitude()
        speedKnots = fields.fixedPoint()
        courseDegrees = fields.fixedPoint()
        date = fields.date()
    }

    func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("valid", isValid)
        sink.field("lat", latitude)
        sink.field("lon", longitude)
        sink.field("speed_knots", speedKnots)
        sink.field("course", courseDegrees)
        sink.field("date", date)
    }
}

extension FieldReader {
    /// Kenwood's magnetic variation and the field after it, its direction letter and a two-digit sentence version
    /// together (`10.80,W00`): the variation, negative west, and the version. A letter other than `E`/`W`, or
    /// characters after it that are not one or two digits, make the second field an
    /// ``FieldError/unexpectedCharacter`` error; the variation, whose sign it holds, is then absent too.
    @inline(never)
    mutating func kenwoodVariationAndVersion() -> (variation: FixedPoint?, version: Int?) {
        var variation = fixedPoint()
        let start = position
        guard let field = nextField(), !field.isEmpty else { return (variation, nil) }
        let bytes = field.bytes
        var offset = 0
        if bytes[0] == UInt8(ascii: "E") || bytes[0] == UInt8(ascii: "W") {
            if bytes[0] == UInt8(ascii: "W"), let magnitude = variation?.significand {
                variation?.significand = -abs(magnitude)
            }
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
        return (variation, version)
    }
}
