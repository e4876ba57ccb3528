/// GBS, GNSS satellite fault detection (RAIM): expected errors and the satellite most likely to have failed.
///
///     $GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0*5A
///
///            1         2   3   4   5  6   7   8   9 10
///     $--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x,h,h*hh
///
///  1. UTC time of the fix this refers to
///  2. Expected error in latitude, metres
///  3. Expected error in longitude, metres
///  4. Expected error in altitude, metres
///  5. PRN of the most likely failed satellite
///  6. Probability of missed detection for that satellite
///  7. Estimated bias of that satellite, metres
///  8. Standard deviation of the bias estimate, metres
///  9. System ID (NMEA 4.10)
/// 10. Signal ID (NMEA 4.10)
public struct GBS: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gbs) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0*5A"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// UTC time of the fix this refers to
    public var time: UTCTime?
    /// Expected error in latitude, metres
    public var latitudeErrorMeters: FixedPoint?
    /// Expected error in longitude, metres
    public var longitudeErrorMeters: FixedPoint?
    /// Expected error in altitude, metres
    public var altitudeErrorMeters: FixedPoint?
    /// PRN of the most likely failed satellite
    public var failedSatellite: Int?
    /// Probability of missed detection for that satellite
    public var missedDetectionProbability: FixedPoint?
    /// Estimated bias of that satellite, metres
    public var biasMeters: FixedPoint?
    /// Standard deviation of the bias estimate, metres
    public var biasStandardDeviationMeters: FixedPoint?
    /// System ID (NMEA 4.10)
    public var systemID: UInt8?
    /// Signal ID (NMEA 4.10)
    public var signalID: UInt8?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, latitudeErrorMeters: FixedPoint?, longitudeErrorMeters: FixedPoint?,
        altitudeErrorMeters: FixedPoint?, failedSatellite: Int? = nil, missedDetectionProbability: FixedPoint? = nil,
        biasMeters: FixedPoint? = nil, biasStandardDeviationMeters: FixedPoint? = nil, systemID: UInt8? = nil,
        signalID: UInt8? = nil
    ) {
        self.talker = talker
        self.time = time
        self.latitudeErrorMeters = latitudeErrorMeters
        self.longitudeErrorMeters = longitudeErrorMeters
        self.altitudeErrorMeters = altitudeErrorMeters
        self.failedSatellite = failedSatellite
        self.missedDetectionProbability = missedDetectionProbability
        self.biasMeters = biasMeters
        self.biasStandardDeviationMeters = biasStandardDeviationMeters
        self.systemID = systemID
        self.signalID = signalID
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        latitudeErrorMeters = fields.fixedPoint()
        longitudeErrorMeters = fields.fixedPoint()
        altitudeErrorMeters = fields.fixedPoint()
        failedSatellite = fields.integer()
        missedDetectionProbability = fields.fixedPoint()
        biasMeters = fields.fixedPoint()
        biasStandardDeviationMeters = fields.fixedPoint()
        systemID = fields.hexadecimal().map { UInt8(truncatingIfNeeded: $0) }
        signalID = fields.hexadecimal().map { UInt8(truncatingIfNeeded: $0) }
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("lat_error", latitudeErrorMeters)
        sink.field("lon_error", longitudeErrorMeters)
        sink.field("alt_error", altitudeErrorMeters)
        sink.field("failed_prn", failedSatellite)
        sink.field("probability", missedDetectionProbability)
        sink.field("bias", biasMeters)
        sink.field("bias_stddev", biasStandardDeviationMeters)
        sink.field("system_id", systemID.map(Int.init))
        sink.field("signal_id", signalID.map(Int.init))
    }
}
