/// GRS, GNSS range residuals: how far each satellite's range disagreed with the solution.
///
///     $GPGRS,220320.0,0,-0.8,-0.2,-0.1,-0.2,0.8,0.6,,,,,,,1,0*78
///
///            1         2 3–14                                     15 16
///     $--GRS,hhmmss.ss,m,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,x.x,h,h*hh
///
///  1. UTC time of the GGA or GNS fix these belong to
///  2. Mode: 0 residuals were used to compute the position, 1 recomputed after it
///  3.–14. Range residual of each satellite in the GSA order, metres (empty slots kept as `nil`)
/// 15. System ID (NMEA 4.10)
/// 16. Signal ID (NMEA 4.10)
public struct GRS: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.grs) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGRS,220320.0,0,-0.8,-0.2,-0.1,-0.2,0.8,0.6,,,,,,,1,0*78"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// UTC time of the GGA or GNS fix these belong to
    public var time: UTCTime?
    /// Mode: 0 residuals were used to compute the position, 1 recomputed after it
    public var mode: Int?
    /// Twelve slots in GSA order; `nil` where the slot was empty.
    public var residualsMeters: FixedList<12, FixedPoint?>
    /// System ID (NMEA 4.10)
    public var systemID: UInt8?
    /// Signal ID (NMEA 4.10)
    public var signalID: UInt8?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, time: UTCTime?, mode: Int?, residualsMeters: FixedList<12, FixedPoint?>,
        systemID: UInt8? = nil, signalID: UInt8? = nil
    ) {
        self.talker = talker
        self.time = time
        self.mode = mode
        self.residualsMeters = residualsMeters
        self.systemID = systemID
        self.signalID = signalID
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        time = fields.time()
        mode = fields.integer(in: 0...1)
        residualsMeters = FixedList()
        for _ in 0..<12 where fields.hasMore { residualsMeters.append(fields.fixedPoint()) }
        try fields.requireRead(1)
        systemID = fields.hexadecimal().map { UInt8(truncatingIfNeeded: $0) }
        signalID = fields.hexadecimal().map { UInt8(truncatingIfNeeded: $0) }
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("mode", mode)
        sink.beginList("residuals")
        for residual in residualsMeters { sink.element(residual) }
        sink.endList()
        sink.field("system_id", systemID.map(Int.init))
        sink.field("signal_id", signalID.map(Int.init))
    }
}
