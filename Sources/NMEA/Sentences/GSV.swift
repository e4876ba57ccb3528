/// GSV, GNSS satellites in view: up to four satellites per sentence, with elevation, azimuth and signal strength.
///
///     $GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74
///     $GAGSV,1,1,03,02,22,096,,08,17,037,,30,38,311,,7*4C       (NMEA 4.10: signal ID)
///     $GPGSV,1,1,00*79                                          (no satellites in view)
///
///            1 2 3  4  5  6   7  8–11        12–15       16–19       20
///     $--GSV,x,x,xx,xx,xx,xxx,xx,xx,xx,xxx,xx,xx,xx,xxx,xx,xx,xx,xxx,xx,h*hh
///
/// 1. Number of GSV sentences in this cycle (for this talker and signal)
/// 2. This sentence's number, from 1
/// 3. Satellites in view
/// 4.–7. Satellite: PRN, elevation (degrees), azimuth (degrees true), SNR (dB-Hz; empty when not tracked);
///    repeated up to four times. The last sentence of a cycle has only the satellites left.
/// 20. Signal ID (NMEA 4.10), after the last satellite
public struct GSV: DecodableSentence, Hashable {
    public static var sentenceType: SentenceType { .gsv }

    /// One satellite in view.
    public struct Satellite: Hashable, Sendable, FixedListElement {
        public var prn: UInt16
        /// Degrees above the horizon, −90…90.
        public var elevationDegrees: Int8?
        /// Degrees from true north, 0…359.
        public var azimuthDegrees: UInt16?
        /// Carrier-to-noise density in dB-Hz; `nil` when the satellite is not tracked.
        public var snr: UInt8?

        public static var placeholder: Satellite {
            Satellite(prn: 0, elevationDegrees: nil, azimuthDegrees: nil, snr: nil)
        }

        public init(prn: UInt16, elevationDegrees: Int8?, azimuthDegrees: UInt16?, snr: UInt8?) {
            self.prn = prn
            self.elevationDegrees = elevationDegrees
            self.azimuthDegrees = azimuthDegrees
            self.snr = snr
        }
    }

    public var talker: Talker
    public var totalMessages: Int?
    public var messageNumber: Int?
    public var satellitesInView: Int?
    /// The satellites in this sentence (at most four).
    public var satellites: FixedList<4, Satellite>
    /// The NMEA 4.10 signal ID (which band: L1 C/A, L5…), when sent.
    public var signalID: UInt8?

    public init(
        talker: Talker = .gps, totalMessages: Int?, messageNumber: Int?, satellitesInView: Int?,
        satellites: FixedList<4, Satellite>, signalID: UInt8? = nil
    ) {
        self.talker = talker
        self.totalMessages = totalMessages
        self.messageNumber = messageNumber
        self.satellitesInView = satellitesInView
        self.satellites = satellites
        self.signalID = signalID
    }

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        talker = sentence.talker
        totalMessages = try fields.integer(in: 0...99)
        messageNumber = try fields.integer(in: 0...99)
        satellitesInView = try fields.integer(in: 0...999)
        try fields.requireRead(3)
        var list = FixedList<4, Satellite>()
        signalID = nil
        // Groups of four fields follow; a single field left over after them is the signal ID.
        while fields.hasMore {
            let groupStart = fields.position
            // Fast path: four small unsigned numbers in range.
            let prn = fields.smallUnsigned()
            let elevation = fields.smallUnsigned()
            let azimuth = fields.smallUnsigned()
            let snr = fields.smallUnsigned()
            if !fields.ranPastEnd {
                if prn >= 0 && (-1...90).contains(elevation) && (-1...360).contains(azimuth) && (-1...99).contains(snr) {
                    list.append(Satellite(
                        prn: UInt16(truncatingIfNeeded: prn),
                        elevationDegrees: elevation < 0 ? nil : Int8(truncatingIfNeeded: elevation),
                        azimuthDegrees: azimuth < 0 ? nil : UInt16(truncatingIfNeeded: azimuth),
                        snr: snr < 0 ? nil : UInt8(truncatingIfNeeded: snr)))
                    continue
                }
                if prn == -1 && elevation == -1 && azimuth == -1 && snr == -1 { continue }  // an empty padding slot
            }
            // Anything else — the signal ID, a short group, a sign, an error — the careful way.
            fields.position = groupStart
            if fields.isAtLastField {
                signalID = try fields.hexadecimal().map { UInt8(truncatingIfNeeded: $0) }
                break
            }
            let carefulPRN = try fields.integer(in: 0...65535)
            let carefulElevation = try fields.integer(in: -90...90)
            let carefulAzimuth = try fields.integer(in: 0...360)
            let carefulSNR = try fields.integer(in: 0...99)
            guard let carefulPRN else { continue }
            list.append(Satellite(
                prn: UInt16(truncatingIfNeeded: carefulPRN),
                elevationDegrees: carefulElevation.map { Int8(truncatingIfNeeded: $0) },
                azimuthDegrees: carefulAzimuth.map { UInt16(truncatingIfNeeded: $0) },
                snr: carefulSNR.map { UInt8(truncatingIfNeeded: $0) }))
        }
        satellites = list
    }
}
