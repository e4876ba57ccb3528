/// HDG, heading from a magnetic sensor, with its deviation and the local magnetic variation.
///
///     $HCHDG,98.3,0.0,E,12.6,W*57
///
///            1   2   3 4   5
///     $--HDG,x.x,x.x,a,x.x,a*hh
///
/// 1. Magnetic sensor heading, degrees
/// 2. 3. Magnetic deviation, degrees, `E`/`W` (west is negative)
/// 4. 5. Magnetic variation, degrees, `E`/`W` (west is negative)
///
/// The sensor heading plus the deviation is the magnetic heading; plus the variation too, the true heading.
public struct HDG: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.hdg) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$HCHDG,98.3,0.0,E,12.6,W*57"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var sensorHeadingDegrees: FixedPoint?
    /// Negative west.
    public var deviationDegrees: FixedPoint?
    /// Negative west.
    public var variationDegrees: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .magneticCompass, sensorHeadingDegrees: FixedPoint?, deviationDegrees: FixedPoint? = nil,
        variationDegrees: FixedPoint? = nil
    ) {
        self.talker = talker
        self.sensorHeadingDegrees = sensorHeadingDegrees
        self.deviationDegrees = deviationDegrees
        self.variationDegrees = variationDegrees
    }

    /// The sensor heading corrected for deviation (none sent counts as 0), in [0, 360).
    public var magneticHeadingDegrees: Double? {
        guard let sensor = sensorHeadingDegrees else { return nil }
        return Heading.normalized(sensor.doubleValue + (deviationDegrees?.doubleValue ?? 0))
    }

    /// The magnetic heading corrected for variation, in [0, 360); `nil` without a variation.
    public var trueHeadingDegrees: Double? {
        guard let magnetic = magneticHeadingDegrees, let variation = variationDegrees else { return nil }
        return Heading.normalized(magnetic + variation.doubleValue)
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        sensorHeadingDegrees = fields.fixedPoint()
        deviationDegrees = fields.signed(positive: "E", negative: "W")
        variationDegrees = fields.signed(positive: "E", negative: "W")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("sensor_heading_deg", sensorHeadingDegrees)
        sink.field("deviation_deg", deviationDegrees)
        sink.field("variation_deg", variationDegrees)
    }
}

/// Angles folded into [0, 360).
enum Heading {
    static func normalized(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value
    }
}
