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
/// 4.–7. Satellite: PRN, elevation (degrees), azimuth (degrees true), SNR (dB-Hz, with the decimals some receivers
///    send, `24.5`; empty when not tracked); repeated up to four times. The last sentence of a cycle has only the
///    satellites left.
/// 20. Signal ID (NMEA 4.10), after the last satellite
public struct GSV: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gsv) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74"
    }

    /// One satellite in view.
    public struct Satellite: Hashable, Sendable, FixedListElement {
        public var prn: UInt16
        /// Degrees above the horizon, −90…90.
        public var elevationDegrees: Int8?
        /// Degrees from true north, 0…359.
        public var azimuthDegrees: UInt16?
        /// Carrier-to-noise density in dB-Hz, with its decimals; `nil` when the satellite is not tracked.
        public var snr: SignalToNoise?

        /// Zeros, not `nil`s: all its bits are 0, so an empty list is made with a few wide stores.
        public static var placeholder: Satellite {
            Satellite(prn: 0, elevationDegrees: 0, azimuthDegrees: 0, snr: SignalToNoise(hundredths: 0))
        }

        public init(prn: UInt16, elevationDegrees: Int8?, azimuthDegrees: UInt16?, snr: SignalToNoise?) {
            self.prn = prn
            self.elevationDegrees = elevationDegrees
            self.azimuthDegrees = azimuthDegrees
            self.snr = snr
        }
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var totalMessages: Int?
    public var messageNumber: Int?
    public var satellitesInView: Int?
    /// The satellites in this sentence (at most four).
    public var satellites: FixedList<4, Satellite>
    /// The NMEA 4.10 signal ID (which band: L1 C/A, L5…), when sent.
    public var signalID: UInt8?

    /// A value with the given fields, for tests and for writing sentences.
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

    /// The one decoding body: any form, field by field, with exact errors. Satellites in the standard widths take
    /// ``FieldReader/standardSatellite(readableUpTo:)``, which reads a whole group from two 8-byte loads.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        (totalMessages, messageNumber) = Self.readPart(&fields)
        satellitesInView = fields.integer(in: 0...999)
        try fields.requireRead(1)
        satellites = FixedList()
        signalID = nil
        // The last byte that may be loaded: the second checksum digit after a framed sentence, its stop byte when it
        // has no checksum, its own last byte otherwise (compared as addresses, so no pointer outside it is formed).
        let last =
            UInt(bitPattern: fields.end) &+ (sentence.isTerminated ? (sentence.checksum != nil ? 2 : 0) : 0)
            &- (sentence.isTerminated ? 0 : 1)
        // Groups of four fields follow; a single field left over after them is the signal ID.
        while fields.hasMore {
            if let satellite = fields.standardSatellite(readableUpTo: last) {
                satellites.append(satellite)
                continue
            }
            // A single field left after the groups: the signal ID.
            if fields.isAtLastField {
                signalID = fields.hexadecimal().map { UInt8(truncatingIfNeeded: $0) }
                break
            }
            let groupStart = fields.position
            // Four small unsigned numbers in range.
            let prn = fields.smallUnsigned()
            let elevation = fields.smallUnsigned()
            let azimuth = fields.smallUnsigned()
            let snr = fields.smallUnsigned()
            if !fields.ranPastEnd {
                if prn >= 0 && (-1...90).contains(elevation) && (-1...360).contains(azimuth)
                    && (-1...99).contains(snr)
                {
                    satellites.append(
                        Satellite(
                            prn: UInt16(truncatingIfNeeded: prn),
                            elevationDegrees: elevation < 0 ? nil : Int8(truncatingIfNeeded: elevation),
                            azimuthDegrees: azimuth < 0 ? nil : UInt16(truncatingIfNeeded: azimuth),
                            snr: snr < 0 ? nil : SignalToNoise(UInt8(truncatingIfNeeded: snr))))
                    continue
                }
                if prn == -1 && elevation == -1 && azimuth == -1 && snr == -1 { continue }  // an empty padding slot
            }
            // Anything else — a short group, a sign, an error — field by field.
            fields.position = groupStart
            let carefulPRN = fields.integer(in: 0...65535)
            let carefulElevation = fields.integer(in: -90...90)
            let carefulAzimuth = fields.integer(in: 0...360)
            let carefulSNR = fields.signalToNoise()
            guard let carefulPRN else { continue }
            satellites.append(
                Satellite(
                    prn: UInt16(truncatingIfNeeded: carefulPRN),
                    elevationDegrees: carefulElevation.map { Int8(truncatingIfNeeded: $0) },
                    azimuthDegrees: carefulAzimuth.map { UInt16(truncatingIfNeeded: $0) },
                    snr: carefulSNR))
        }
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("total", totalMessages)
        sink.field("number", messageNumber)
        sink.field("in_view", satellitesInView)
        sink.beginList("satellites")
        for satellite in satellites {
            sink.beginGroup()
            sink.field("prn", Int(satellite.prn))
            sink.field("elevation", satellite.elevationDegrees.map(Int.init))
            sink.field("azimuth", satellite.azimuthDegrees.map(Int.init))
            sink.field("snr", satellite.snr?.value)
            sink.endGroup()
        }
        sink.endList()
        sink.field("signal_id", signalID.map(Int.init))
    }
}

extension FieldReader {
    /// Reads a satellite written in the standard widths, `dd,dd,ddd,dd` or with an empty SNR `dd,dd,ddd,`, followed
    /// by a comma or the end, from two 8-byte loads: the values the four fields give read one by one. `nil` (and
    /// the reader unmoved) for anything else, or when the 13 bytes from ``position`` do not all lie at or below
    /// `last`, the address of the last byte that may be loaded.
    @inline(__always)
    mutating func standardSatellite(readableUpTo last: UInt) -> GSV.Satellite? {
        let cursor = position
        guard UInt(bitPattern: cursor) &+ 12 <= last, cursor <= end else { return nil }
        // Bytes 0–7: `dd,dd,dd`. XOR with the pattern leaves digits as 0–9 and commas as 0; adding 0x76 to a
        // digit's low seven bits (0x7F to a comma's) sets the high bit of any byte that is not what the pattern
        // wants.
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let high: UInt64 = 0x8080_8080_8080_8080
        let first = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
        let firstPattern: UInt64 = 0x3030_2C30_302C_3030  // "00,00,00" read little-endian
        let firstLimits: UInt64 = 0x7676_7F76_767F_7676
        let x1 = first ^ firstPattern
        guard (((x1 & low7) &+ firstLimits) | x1) & high == 0 else { return nil }
        // Bytes 5–12: `,ddd,dd` and the byte after the SNR, or `,ddd,` and the byte after the empty SNR.
        let second = UInt64(littleEndian: UnsafeRawPointer(cursor + 5).loadUnaligned(as: UInt64.self))
        let x2 = second ^ 0x0030_302C_3030_302C
        let bad = ((x2 & low7) &+ 0x0076_767F_7676_767F) | x2
        let length: Int
        let snr: SignalToNoise?
        if bad & 0x0080_8080_8080_8080 == 0 {
            length = 12
            let pairs = x2 &* 10 &+ (x2 >> 8)
            snr = SignalToNoise(UInt8(truncatingIfNeeded: pairs >> 40))
        } else if bad & 0x0000_0080_8080_8080 == 0 {
            // `dd,dd,ddd,` and then the SNR's field ends at once: it is empty.
            length = 10
            snr = nil
        } else {
            return nil
        }
        guard cursor + length <= end, cursor[length] == UInt8(ascii: ",") || cursor + length == end else {
            return nil
        }
        // Each byte of `pairs` is ten times its digit plus the next: the PRN at byte 0, the elevation at byte 3,
        // the first two digits of the azimuth at byte 6; its last digit is byte 3 of `x2`.
        let pairs = x1 &* 10 &+ (x1 >> 8)
        let elevation = UInt8(truncatingIfNeeded: pairs >> 24)
        guard elevation <= 90 else { return nil }
        let azimuth =
            UInt16(UInt8(truncatingIfNeeded: pairs >> 48)) &* 10
            &+ UInt16(UInt8(truncatingIfNeeded: x2 >> 24))
        guard azimuth <= 360 else { return nil }
        position = cursor + length + 1
        return GSV.Satellite(
            prn: UInt16(UInt8(truncatingIfNeeded: pairs)), elevationDegrees: Int8(elevation),
            azimuthDegrees: azimuth, snr: snr)
    }
}

extension GSV {
    /// `true` for the last message of its group (``messageNumber`` is ``totalMessages``).
    public var isLastPart: Bool { Self.isLastPart(number: messageNumber, of: totalMessages) }

    /// Whether message `number` is the last of a group of `total`.
    static func isLastPart(number: Int?, of total: Int?) -> Bool { number == total }

    /// Its first two fields: how many messages its group has, and which it is.
    @inline(always)
    static func readPart(_ fields: inout FieldReader) -> (total: Int?, number: Int?) {
        let total = fields.integer(in: 0...99)
        return (total, fields.integer(in: 0...99))
    }

    /// Its place in the receiver's cycle, read from its first two fields alone, as its ``merge(into:)`` gives it:
    /// for a reader that does not read the sky (``FixReader/Options/readsSky``).
    /// - Throws: what decoding it throws for a sentence without a single field.
    static func cycleSignature(of sentence: Sentence) throws(NMEAError) -> SentenceSignature {
        var fields = sentence.fieldReader
        let (total, number) = readPart(&fields)
        try fields.requireRead(1)
        return SentenceSignature(sentence.talker, .gsv, isLastPart: isLastPart(number: number, of: total))
    }
}
