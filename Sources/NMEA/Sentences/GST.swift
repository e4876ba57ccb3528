/// GST, GNSS pseudorange error statistics: the receiver's own estimate of its position error.
///
///     $GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A
///
///            1         2   3   4   5   6   7   8
///     $--GST,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x*hh
///
/// 1. UTC time
/// 2. RMS of the standard deviation of the range inputs, metres
/// 3. Standard deviation of the semi-major axis of the error ellipse, metres
/// 4. Standard deviation of the semi-minor axis, metres
/// 5. Orientation of the semi-major axis, degrees from true north
/// 6. Standard deviation of latitude error, metres
/// 7. Standard deviation of longitude error, metres
/// 8. Standard deviation of altitude error, metres
public struct GST: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gst) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// UTC time
    public var time: UTCTime?
    /// RMS of the standard deviation of the range inputs, metres
    public var rangeRMSMeters: FixedPoint?
    /// Standard deviation of the semi-major axis of the error ellipse, metres
    public var semiMajorMeters: FixedPoint?
    /// Standard deviation of the semi-minor axis, metres
    public var semiMinorMeters: FixedPoint?
    /// Orientation of the semi-major axis, degrees from true north
    public var orientationDegrees: FixedPoint?
    /// Standard deviation of latitude error, metres
    public var latitudeErrorMeters: FixedPoint?
    /// Standard deviation of longitude error, metres
    public var longitudeErrorMeters: FixedPoint?
    /// Standard deviation of altitude error, metres
    public var altitudeErrorMeters: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, rangeRMSMeters: FixedPoint?, semiMajorMeters: FixedPoint?,
        semiMinorMeters: FixedPoint?, orientationDegrees: FixedPoint?, latitudeErrorMeters: FixedPoint?,
        longitudeErrorMeters: FixedPoint?, altitudeErrorMeters: FixedPoint?
    ) {
        self.talker = talker
        self.time = time
        self.rangeRMSMeters = rangeRMSMeters
        self.semiMajorMeters = semiMajorMeters
        self.semiMinorMeters = semiMinorMeters
        self.orientationDegrees = orientationDegrees
        self.latitudeErrorMeters = latitudeErrorMeters
        self.longitudeErrorMeters = longitudeErrorMeters
        self.altitudeErrorMeters = altitudeErrorMeters
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        rangeRMSMeters = fields.fixedPoint()
        semiMajorMeters = fields.fixedPoint()
        semiMinorMeters = fields.fixedPoint()
        orientationDegrees = fields.fixedPoint()
        latitudeErrorMeters = fields.fixedPoint()
        longitudeErrorMeters = fields.fixedPoint()
        altitudeErrorMeters = fields.fixedPoint()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("rms", rangeRMSMeters)
        sink.field("semi_major", semiMajorMeters)
        sink.field("semi_minor", semiMinorMeters)
        sink.field("orientation", orientationDegrees)
        sink.field("lat_error", latitudeErrorMeters)
        sink.field("lon_error", longitudeErrorMeters)
        sink.field("alt_error", altitudeErrorMeters)
    }
}
