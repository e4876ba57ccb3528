/// Trimble `$PTNLDG`, DGPS receiver status: the signal of the channel that receives differential corrections, from a
/// radio beacon or an L-band satellite (OmniSTAR, RTX), and whether the position uses them.
///
///     $PTNLDG,44.0,33.0,287.0,100,0,4,1,0,,,*3E                 (beacon)
///     $PTNLDG,124.0,10.5,1557855.0,1200,2,4,0,3,,,*3C           (L-band satellite)
///
///             1   2   3   4 5 6 7 8 9 10 11
///     $PTNLDG,x.x,x.x,x.x,x,x,x,x,x, , ,  *hh
///
///  1. Signal strength: for a beacon the field intensity, dBµV/m; for a satellite the ADC input level
///  2. Signal to noise, dB
///  3. Frequency, kHz
///  4. Bit rate, bits per second
///  5. Channel number, 0–99: 0 for the beacon, 2 for L-band (as the DSM 232 receivers number them)
///  6. Tracking status: 0 idle, 1 wideband FFT search, 2 searching, 3 acquired, 4 locked (a beacon's RTCM received,
///     an L-band signal's data decoded), 5 disabled
///  7. Corrections used: 1 when this channel is the source of the corrections in the DGPS position, 0 otherwise
///  8. Tracking performance: for a beacon the word error rate, percent (older receivers: errors in the last 255
///     words); for L-band the time since the last sync, tenths of a second, 0–255
///  9.–11. Reserved, empty
///
/// The layout is Trimble's receiver help for OEM receivers v4.44 ("NMEA-0183 message: PTNL,DG") and the AgGPS 332
/// and DSM 132 user guides ("PTNLDG Proprietary (Trimble DGPS Receiver Status)"), whose examples are the samples; pynmea2
/// reads the same eight fields. Where the sources disagree this follows them: Trimble's newer Alloy help leaves field
/// 7 out of its table (its example still has it), and pynmeagps follows that table, reading field 7 as the tracking
/// performance.
///
/// The manuals write the address whole, `$PTNLDG`; some logs (pynmeagps's Trimble sample) write it as a `$PTNL`
/// message, `$PTNL,DG,44.0,…`: both decode here (``alternativeAddress``), with field numbers one higher in the
/// second.
public struct PTNLDG: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnldg) }
    /// The second address this type arrives under.
    public static var alternativeAddress: SentenceAddress? { .proprietary(.ptnl, messageID: "D", "G") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNLDG,44.0,33.0,287.0,100,0,4,1,0,,,*3E"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// dBµV/m for a beacon; the ADC input level for a satellite.
    public var signalStrength: FixedPoint?
    public var signalToNoiseDecibels: FixedPoint?
    public var frequencyKilohertz: FixedPoint?
    /// Bits per second.
    public var bitRate: Int?
    /// 0 for the beacon, 2 for L-band.
    public var channel: Int?
    /// 0 idle, 1 wideband FFT search, 2 searching, 3 acquired, 4 locked, 5 disabled.
    public var trackingStatus: Int?
    /// `true` when this channel's corrections are used in the DGPS position.
    public var isUsedForCorrections: Bool?
    /// A beacon's word error rate (percent); the tenths of a second since an L-band signal's last sync.
    public var trackingPerformance: Int?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        signalStrength: FixedPoint?, signalToNoiseDecibels: FixedPoint?, frequencyKilohertz: FixedPoint?,
        bitRate: Int?, channel: Int?, trackingStatus: Int?, isUsedForCorrections: Bool?, trackingPerformance: Int?
    ) {
        self.signalStrength = signalStrength
        self.signalToNoiseDecibels = signalToNoiseDecibels
        self.frequencyKilohertz = frequencyKilohertz
        self.bitRate = bitRate
        self.channel = channel
        self.trackingStatus = trackingStatus
        self.isUsedForCorrections = isUsedForCorrections
        self.trackingPerformance = trackingPerformance
    }

    /// `true` for tracking status 4: the channel is locked on its signal.
    public var isLocked: Bool { trackingStatus == 4 }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        if sentence.type == .ptnl { try fields.expectMessage(of: Self.alternativeAddress.unsafelyUnwrapped) }
        signalStrength = fields.fixedPoint()
        signalToNoiseDecibels = fields.fixedPoint()
        frequencyKilohertz = fields.fixedPoint()
        bitRate = fields.integer(in: 0...1_000_000)
        channel = fields.integer(in: 0...99)
        trackingStatus = fields.integer(in: 0...99)
        isUsedForCorrections = fields.integer(in: 0...1).map { $0 == 1 }
        trackingPerformance = fields.integer(in: 0...255)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("strength", signalStrength)
        sink.field("snr_db", signalToNoiseDecibels)
        sink.field("frequency_khz", frequencyKilohertz)
        sink.field("bit_rate", bitRate)
        sink.field("channel", channel)
        sink.field("tracking_status", trackingStatus)
        sink.field("corrections_used", isUsedForCorrections)
        sink.field("tracking_performance", trackingPerformance)
    }
}
