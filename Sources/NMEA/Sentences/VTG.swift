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
public struct VTG: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vtg) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Course over ground, degrees true, `T`
    public var courseTrueDegrees: FixedPoint?
    /// Course over ground, degrees magnetic, `M`
    public var courseMagneticDegrees: FixedPoint?
    /// Speed over ground, knots, `N`
    public var speedKnots: FixedPoint?
    /// Speed over ground, km/h, `K`
    public var speedKilometersPerHour: FixedPoint?
    /// FAA mode indicator (NMEA 2.3 and later)
    public var mode: FAAMode?

    /// A value with the given fields, for tests and for writing sentences.
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

    /// The one decoding body: any form, field by field, with exact errors.
    ///
    /// The NMEA 2.3 layout is read without counting fields. A sentence cut short (`$GPVTG,,T,,M,0.00,N`, without
    /// its km/h) has the fields it left off absent; one of exactly four fields whose unit letters did not read as
    /// such is the pre-2.0 layout, read again as that.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        courseTrueDegrees = fields.fixedPoint()
        fields.unit("T")
        courseMagneticDegrees = fields.fixedPoint()
        fields.unit("M")
        speedKnots = fields.fixedPoint()
        fields.unit("N")
        speedKilometersPerHour = fields.fixedPoint()
        fields.unit("K")
        mode = fields.letter(in: FAAMode.letters).map(FAAMode.init(rawValue:))
        try fields.requireRead(1)
        // Four fields whose unit letters did not read as such: the pre-2.0 layout, read again as that.
        if fields.ranPastEnd && !fields.errors.isEmpty && sentence.fieldCount == 4 {
            fields = sentence.fieldReader
            courseTrueDegrees = fields.fixedPoint()
            courseMagneticDegrees = fields.fixedPoint()
            speedKnots = fields.fixedPoint()
            speedKilometersPerHour = fields.fixedPoint()
            mode = nil
        }
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("course", courseTrueDegrees)
        sink.field("course_magnetic", courseMagneticDegrees)
        sink.field("speed_knots", speedKnots)
        sink.field("speed_kmh", speedKilometersPerHour)
        sink.field("mode", letter: mode?.rawValue)
    }
}
