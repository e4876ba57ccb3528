/// VLW, distance travelled through the water and over the ground, in total and since the last reset.
///
///     $IIVLW,1234.5,N,12.3,N,1220.8,N,11.9,N*4C
///
///            1   2 3   4 5   6 7   8
///     $--VLW,x.x,N,x.x,N,x.x,N,x.x,N*hh
///
/// 1. 2. Total distance through the water, nautical miles, `N`
/// 3. 4. Distance through the water since the last reset, nautical miles, `N`
/// 5. 6. Total distance over the ground, nautical miles, `N` (NMEA 3.0 and later)
/// 7. 8. Distance over the ground since the last reset, nautical miles, `N` (NMEA 3.0 and later)
///
/// Older logs send the first four fields only; the ground distances are then absent.
public struct VLW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vlw) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIVLW,1234.5,N,12.3,N,1220.8,N,11.9,N*4C"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Total distance through the water, nautical miles, `N`
    public var totalWaterDistanceNauticalMiles: FixedPoint?
    /// Distance through the water since the last reset, nautical miles, `N`
    public var waterDistanceSinceResetNauticalMiles: FixedPoint?
    /// Total distance over the ground, nautical miles, `N` (NMEA 3.0 and later)
    public var totalGroundDistanceNauticalMiles: FixedPoint?
    /// Distance over the ground since the last reset, nautical miles, `N` (NMEA 3.0 and later)
    public var groundDistanceSinceResetNauticalMiles: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .integratedInstrumentation, totalWaterDistanceNauticalMiles: FixedPoint?,
        waterDistanceSinceResetNauticalMiles: FixedPoint?, totalGroundDistanceNauticalMiles: FixedPoint? = nil,
        groundDistanceSinceResetNauticalMiles: FixedPoint? = nil
    ) {
        self.talker = talker
        self.totalWaterDistanceNauticalMiles = totalWaterDistanceNauticalMiles
        self.waterDistanceSinceResetNauticalMiles = waterDistanceSinceResetNauticalMiles
        self.totalGroundDistanceNauticalMiles = totalGroundDistanceNauticalMiles
        self.groundDistanceSinceResetNauticalMiles = groundDistanceSinceResetNauticalMiles
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        totalWaterDistanceNauticalMiles = fields.fixedPoint()
        fields.unit("N")
        waterDistanceSinceResetNauticalMiles = fields.fixedPoint()
        fields.unit("N")
        totalGroundDistanceNauticalMiles = fields.fixedPoint()
        fields.unit("N")
        groundDistanceSinceResetNauticalMiles = fields.fixedPoint()
        fields.unit("N")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("total_water_distance_nm", totalWaterDistanceNauticalMiles)
        sink.field("water_distance_since_reset_nm", waterDistanceSinceResetNauticalMiles)
        sink.field("total_ground_distance_nm", totalGroundDistanceNauticalMiles)
        sink.field("ground_distance_since_reset_nm", groundDistanceSinceResetNauticalMiles)
    }
}
