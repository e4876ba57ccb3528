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
    public static var address: SentenceAddress { .standard(.vlw) }
    public static var sample: String {
        "$IIVLW,1234.5,N,12.3,N,1220.8,N,11.9,N*4C"
    }

    public var talker: Talker
    public var totalWaterDistanceNauticalMiles: FixedPoint?
    public var waterDistanceSinceResetNauticalMiles: FixedPoint?
    public var totalGroundDistanceNauticalMiles: FixedPoint?
    public var groundDistanceSinceResetNauticalMiles: FixedPoint?

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

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("total_water_distance_nm", totalWaterDistanceNauticalMiles)
        sink.field("water_distance_since_reset_nm", waterDistanceSinceResetNauticalMiles)
        sink.field("total_ground_distance_nm", totalGroundDistanceNauticalMiles)
        sink.field("ground_distance_since_reset_nm", groundDistanceSinceResetNauticalMiles)
    }
}
