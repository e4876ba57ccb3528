/// VTG, course over ground and ground speed.
///
///     $GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48
///     $GPVTG,,T,,M,0.010,N,0.018,K,A*2B
///
///            1   2 3   4 5   6 7   8 9
///     $--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh
///
/// 1. 2. Course over ground, degrees true, `T`
/// 3. 4. Course over ground, degrees magnetic, `M`
/// 5. 6. Speed over ground, knots, `N`
/// 7. 8. Speed over ground, km/h, `K`
/// 9. FAA mode indicator (NMEA 2.3 and later)
///
/// Pre-2.0 receivers send `$--VTG,x.x,x.x,x.x,x.x` (true course, magnetic course, knots, km/h) without the unit
/// letters; that form is read too.
public struct VTG: DecodableSentence, Hashable {
    public static var sentenceType: SentenceType { .vtg }

    public var talker: Talker
    public var courseTrueDegrees: FixedPoint?
    public var courseMagneticDegrees: FixedPoint?
    public var speedKnots: FixedPoint?
    public var speedKilometersPerHour: FixedPoint?
    public var mode: FAAMode?

    public init(
        talker: Talker = .gps, courseTrueDegrees: FixedPoint?, courseMagneticDegrees: FixedPoint? = nil,
        speedKnots: FixedPoint?, speedKilometersPerHour: FixedPoint?, mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.courseTrueDegrees = courseTrueDegrees
        self.courseMagneticDegrees = courseMagneticDegrees
        self.speedKnots = speedKnots
        self.speedKilometersPerHour = speedKilometersPerHour
        self.mode = mode
    }

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        // Fast path for the NMEA 2.3+ layout (eight or nine fields, units after each value), up to the stop byte the
        // framer guarantees after the sentence; anything else — the four-field NMEA 2.0 layout among it — is read
        // the careful way below, which gives the same values and the exact errors.
        fast: if sentence.isTerminated {
            var fields = TerminatedFieldReader(sentence)
            guard let courseTrue = fields.decimal() else { break fast }
            fields.skip()
            guard let courseMagnetic = fields.decimal() else { break fast }
            fields.skip()
            guard let knots = fields.decimal() else { break fast }
            fields.skip()
            guard let kilometersPerHour = fields.decimal() else { break fast }
            fields.skip()
            guard let mode = fields.character(), fields.fieldsFound >= 8 else { break fast }
            talker = sentence.talker
            courseTrueDegrees = courseTrue
            courseMagneticDegrees = courseMagnetic
            speedKnots = knots
            speedKilometersPerHour = kilometersPerHour
            self.mode = mode.map(FAAMode.init(rawValue:))
            return
        }
        self = try VTG(carefully: sentence)
    }

    /// Decodes any form, field by field, with exact errors.
    init(carefully sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        talker = sentence.talker
        let count = sentence.fieldCount
        guard count >= 4 else { throw .tooFewFields(expected: 4, found: count) }
        courseTrueDegrees = try fields.fixedPoint()
        if count == 4 {
            courseMagneticDegrees = try fields.fixedPoint()
            speedKnots = try fields.fixedPoint()
            speedKilometersPerHour = try fields.fixedPoint()
            mode = nil
            return
        }
        fields.skip()
        courseMagneticDegrees = try fields.fixedPoint()
        fields.skip()
        speedKnots = try fields.fixedPoint()
        fields.skip()
        speedKilometersPerHour = try fields.fixedPoint()
        fields.skip()
        mode = try fields.character().map(FAAMode.init(rawValue:))
        try fields.requireRead(8)
    }
}
