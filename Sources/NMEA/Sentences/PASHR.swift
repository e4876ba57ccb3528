/// `$PASHR` attitude (the form Applanix, NovAtel, Trimble, Hemisphere and OxTS send): heading, roll, pitch and
/// heave, with their accuracies, from a GNSS/inertial system.
///
///     $PASHR,163029.000,158.09,T,-0.30,+0.31,+0.01,0.029,0.029,0.059,1,1*3B
///
///            1         2   3 4   5   6   7   8   9   10 11
///     $PASHR,hhmmss.ss,x.x,T,x.x,x.x,x.x,x.x,x.x,x.x, x,x*hh
///
///  1. UTC time
///  2. Heading, degrees
///  3. `T` when the heading is from true north (empty otherwise)
///  4. Roll, degrees (NovAtel always writes the sign)
///  5. Pitch, degrees (likewise)
///  6. Heave, metres (Trimble leaves it empty: reserved)
///  7. Roll accuracy (standard deviation), degrees
///  8. Pitch accuracy, degrees
///  9. Heading accuracy, degrees
/// 10. GNSS quality: NovAtel 0 no position, 1 a fix without RTK fixed integers, 2 RTK fixed; Trimble 0 no fix,
///     1 SPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning
/// 11. INS status: NovAtel 0 before, 1 after the inertial alignment; Trimble 0 GPS only, 1 coarse levelling,
///     2 degraded, 3 aligned, 4 full navigation (older NovAtel firmware leaves the field out)
///
/// Ashtech receivers use the same address for messages of their own that begin with a word (`$PASHR,POS,…`,
/// `$PASHR,SAT,…`): this attitude message is the one whose first field is a number (or empty), and only it is
/// decoded here (of the others, `$PASHR,LTN` is ``PASHRLTN``'s; the rest stay unknown). Decoding one of the others
/// directly throws for field 1.
public struct PASHR: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietaryNumbered(.pashr) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PASHR,163029.000,158.09,T,-0.30,+0.31,+0.01,0.029,0.029,0.059,1,1*3B"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var headingDegrees: FixedPoint?
    /// `true` when field 3 says the heading is from true north.
    public var isTrueHeading: Bool
    public var rollDegrees: FixedPoint?
    public var pitchDegrees: FixedPoint?
    public var heaveMeters: FixedPoint?
    public var rollAccuracyDegrees: FixedPoint?
    public var pitchAccuracyDegrees: FixedPoint?
    public var headingAccuracyDegrees: FixedPoint?
    /// The maker's GNSS quality number (see the list above).
    public var gnssQuality: Int?
    /// The maker's INS or IMU alignment status number.
    public var insStatus: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        time: UTCTime?, headingDegrees: FixedPoint?, isTrueHeading: Bool, rollDegrees: FixedPoint?,
        pitchDegrees: FixedPoint?, heaveMeters: FixedPoint? = nil, rollAccuracyDegrees: FixedPoint? = nil,
        pitchAccuracyDegrees: FixedPoint? = nil, headingAccuracyDegrees: FixedPoint? = nil, gnssQuality: Int? = nil,
        insStatus: Int? = nil
    ) {
        self.time = time
        self.headingDegrees = headingDegrees
        self.isTrueHeading = isTrueHeading
        self.rollDegrees = rollDegrees
        self.pitchDegrees = pitchDegrees
        self.heaveMeters = heaveMeters
        self.rollAccuracyDegrees = rollAccuracyDegrees
        self.pitchAccuracyDegrees = pitchAccuracyDegrees
        self.headingAccuracyDegrees = headingAccuracyDegrees
        self.gnssQuality = gnssQuality
        self.insStatus = insStatus
    }

    /// The heading when it is from true north.
    public var trueHeadingDegrees: FixedPoint? { isTrueHeading ? headingDegrees : nil }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        var peek = fields
        if let first = peek.nextField(), !first.isEmpty, (first.bytes[0] | 0x20) &- UInt8(ascii: "a") < 26 {
            throw .badField(index: 1, reason: .unexpectedCharacter)  // `$PASHR,POS,…`: another message
        }
        time = fields.time()
        headingDegrees = fields.fixedPoint()
        isTrueHeading = fields.letter(in: "T") != nil
        rollDegrees = fields.fixedPoint()
        pitchDegrees = fields.fixedPoint()
        heaveMeters = fields.fixedPoint()
        rollAccuracyDegrees = fields.fixedPoint()
        pitchAccuracyDegrees = fields.fixedPoint()
        headingAccuracyDegrees = fields.fixedPoint()
        gnssQuality = fields.integer(in: 0...99)
        insStatus = fields.integer(in: 0...99)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("heading_deg", headingDegrees)
        sink.field("heading_true", isTrueHeading)
        sink.field("roll_deg", rollDegrees)
        sink.field("pitch_deg", pitchDegrees)
        sink.field("heave_m", heaveMeters)
        sink.field("roll_accuracy_deg", rollAccuracyDegrees)
        sink.field("pitch_accuracy_deg", pitchAccuracyDegrees)
        sink.field("heading_accuracy_deg", headingAccuracyDegrees)
        sink.field("gnss_quality", gnssQuality)
        sink.field("ins_status", insStatus)
    }
}
