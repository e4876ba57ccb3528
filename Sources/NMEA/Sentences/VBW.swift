/// VBW, dual ground and water speed: along and across the vessel, through the water and over the ground.
///
///     $IIVBW,6.4,-0.2,A,6.8,0.1,A,0.3,A,0.4,A*66
///
///            1   2   3 4   5   6 7   8 9   10
///     $--VBW,x.x,x.x,A,x.x,x.x,A,x.x,A,x.x,A*hh
///
/// 1. Longitudinal water speed, knots; negative: astern
/// 2. Transverse water speed, knots; negative: to port
/// 3. Status of the water speeds: `A` valid, `V` not valid
/// 4. Longitudinal ground speed, knots; negative: astern
/// 5. Transverse ground speed, knots; negative: to port
/// 6. Status of the ground speeds: `A` valid, `V` not valid
/// 7. Transverse water speed at the stern, knots; negative: to port (NMEA 3.0 and later)
/// 8. Its status: `A` valid, `V` not valid (NMEA 3.0 and later)
/// 9. Transverse ground speed at the stern, knots; negative: to port (NMEA 3.0 and later)
/// 10. Its status: `A` valid, `V` not valid (NMEA 3.0 and later)
///
/// Older instruments send the first six fields only; the stern fields are then absent.
public struct VBW: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vbw) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIVBW,6.4,-0.2,A,6.8,0.1,A,0.3,A,0.4,A*66"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// Longitudinal water speed, knots; negative: astern
    public var longitudinalWaterSpeedKnots: FixedPoint?
    /// Transverse water speed, knots; negative: to port
    public var transverseWaterSpeedKnots: FixedPoint?
    /// Status of the water speeds: `A` valid, `V` not valid
    public var isWaterSpeedValid: Bool?
    /// Longitudinal ground speed, knots; negative: astern
    public var longitudinalGroundSpeedKnots: FixedPoint?
    /// Transverse ground speed, knots; negative: to port
    public var transverseGroundSpeedKnots: FixedPoint?
    /// Status of the ground speeds: `A` valid, `V` not valid
    public var isGroundSpeedValid: Bool?
    /// Transverse water speed at the stern, knots; negative: to port (NMEA 3.0 and later)
    public var sternTransverseWaterSpeedKnots: FixedPoint?
    /// Its status: `A` valid, `V` not valid (NMEA 3.0 and later)
    public var isSternWaterSpeedValid: Bool?
    /// Transverse ground speed at the stern, knots; negative: to port (NMEA 3.0 and later)
    public var sternTransverseGroundSpeedKnots: FixedPoint?
    /// Its status: `A` valid, `V` not valid (NMEA 3.0 and later)
    public var isSternGroundSpeedValid: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .integratedInstrumentation, longitudinalWaterSpeedKnots: FixedPoint?,
        transverseWaterSpeedKnots: FixedPoint?, isWaterSpeedValid: Bool?, longitudinalGroundSpeedKnots: FixedPoint?,
        transverseGroundSpeedKnots: FixedPoint?, isGroundSpeedValid: Bool?,
        sternTransverseWaterSpeedKnots: FixedPoint? = nil, isSternWaterSpeedValid: Bool? = nil,
        sternTransverseGroundSpeedKnots: FixedPoint? = nil, isSternGroundSpeedValid: Bool? = nil
    ) {
        self.talker = talker
        self.longitudinalWaterSpeedKnots = longitudinalWaterSpeedKnots
        self.transverseWaterSpeedKnots = transverseWaterSpeedKnots
        self.isWaterSpeedValid = isWaterSpeedValid
        self.longitudinalGroundSpeedKnots = longitudinalGroundSpeedKnots
        self.transverseGroundSpeedKnots = transverseGroundSpeedKnots
        self.isGroundSpeedValid = isGroundSpeedValid
        self.sternTransverseWaterSpeedKnots = sternTransverseWaterSpeedKnots
        self.isSternWaterSpeedValid = isSternWaterSpeedValid
        self.sternTransverseGroundSpeedKnots = sternTransverseGroundSpeedKnots
        self.isSternGroundSpeedValid = isSternGroundSpeedValid
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        longitudinalWaterSpeedKnots = fields.fixedPoint()
        transverseWaterSpeedKnots = fields.fixedPoint()
        isWaterSpeedValid = fields.status()
        longitudinalGroundSpeedKnots = fields.fixedPoint()
        transverseGroundSpeedKnots = fields.fixedPoint()
        isGroundSpeedValid = fields.status()
        sternTransverseWaterSpeedKnots = fields.fixedPoint()
        isSternWaterSpeedValid = fields.status()
        sternTransverseGroundSpeedKnots = fields.fixedPoint()
        isSternGroundSpeedValid = fields.status()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("water_speed_longitudinal_knots", longitudinalWaterSpeedKnots)
        sink.field("water_speed_transverse_knots", transverseWaterSpeedKnots)
        sink.field("water_speed_valid", isWaterSpeedValid)
        sink.field("ground_speed_longitudinal_knots", longitudinalGroundSpeedKnots)
        sink.field("ground_speed_transverse_knots", transverseGroundSpeedKnots)
        sink.field("ground_speed_valid", isGroundSpeedValid)
        sink.field("stern_water_speed_transverse_knots", sternTransverseWaterSpeedKnots)
        sink.field("stern_water_speed_valid", isSternWaterSpeedValid)
        sink.field("stern_ground_speed_transverse_knots", sternTransverseGroundSpeedKnots)
        sink.field("stern_ground_speed_valid", isSternGroundSpeedValid)
    }
}
