/// u-blox `$PUBX,03`, satellite status: every satellite tracked, with its use, position in the sky and signal.
///
///     $PUBX,03,11,23,-,,,45,010,29,-,,,46,013,07,-,,,42,015,08,U,067,31,42,025,10,U,195,33,46,026,…*0F
///
///          1  2  3  4 5   6  7  8   (3–8 repeated for each satellite)
///     $PUBX,03,GT,sv,s,azm,el,cno,lck,…*hh
///
/// 1. Message ID `03`
/// 2. Number of satellites that follow
/// 3. Satellite ID
/// 4. Status: `U` used in the solution, `e` ephemeris known but not used, `-` not used
/// 5. Azimuth, degrees
/// 6. Elevation, degrees
/// 7. Carrier-to-noise density, dB-Hz (with its decimals, when sent)
/// 8. Carrier lock time, seconds (0…64)
///
/// The list can be long (u-blox receivers track 30 and more satellites), so it is not copied: ``satellites`` reads
/// it from the sentence as you iterate. Like ``Sentence``, a `PUBXSatellites` is valid only inside the callback that
/// produced it.
public struct PUBXSatellites: DecodableSentence {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pubx, messageID: "0", "3") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PUBX,03,11,23,-,,,45,010,29,-,,,46,013,07,-,,,42,015,08,U,067,31,42,025,10,U,195,33,46,026,18,U,326,08,"
            + "39,026,17,-,,,32,015,26,U,306,66,48,025,27,U,073,10,36,026,28,U,089,61,46,024,15,-,,,39,014*0D"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// One satellite of the list.
    public struct Satellite: Hashable, Sendable {
        public var id: Int
        /// `U` used, `e` ephemeris available but not used, `-` not used.
        public var status: UInt8?
        public var azimuthDegrees: Int?
        public var elevationDegrees: Int?
        /// dB-Hz, with its decimals.
        public var carrierToNoise: SignalToNoise?
        /// Seconds, 0…64.
        public var lockTimeSeconds: Int?

        /// A value with the given fields, for tests and for writing sentences.
        public init(
            id: Int, status: UInt8?, azimuthDegrees: Int?, elevationDegrees: Int?, carrierToNoise: SignalToNoise?,
            lockTimeSeconds: Int?
        ) {
            self.id = id
            self.status = status
            self.azimuthDegrees = azimuthDegrees
            self.elevationDegrees = elevationDegrees
            self.carrierToNoise = carrierToNoise
            self.lockTimeSeconds = lockTimeSeconds
        }

        /// `true` for status `U`.
        public var isUsed: Bool { status == UInt8(ascii: "U") }
    }

    /// The satellite count the sentence announces (0 when it announces none).
    public var count: Int
    /// The satellites, decoded lazily from the sentence.
    public var satellites: Satellites

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectPUBXMessage(3)
        let announced = fields.integer(in: 0...255)
        count = announced ?? 0
        // Without a count (empty, or a bad one), the satellites the sentence holds are still read.
        satellites = Satellites(reader: fields, count: announced ?? Int.max)
        // Read the whole list once, so that its bad fields are reported here (the iterations to come read it again,
        // and skip the satellites without an ID as this does).
        var iterator = satellites.makeIterator()
        while iterator.next() != nil {}
        fields = iterator.reader
    }

    /// The satellites of a `$PUBX,03`, read from the sentence as they are iterated.
    public struct Satellites: Sequence {
        let reader: FieldReader
        /// The most satellites read: the announced count, or (none announced) every one the sentence holds.
        public let count: Int

        public func makeIterator() -> Iterator { Iterator(reader: reader, remaining: count) }

        public struct Iterator: IteratorProtocol {
            var reader: FieldReader
            var remaining: Int

            /// The next satellite: the announced count at most, as many as the sentence holds; one without an ID
            /// is skipped (its bad fields were reported when the sentence was decoded).
            public mutating func next() -> Satellite? {
                while remaining > 0 && reader.hasMore {
                    remaining -= 1
                    let id = reader.integer(in: 0...999)
                    let status = reader.letter(in: "Ue-")
                    let azimuth = reader.integer(in: 0...360)
                    let elevation = reader.integer(in: -90...90)
                    let carrierToNoise = reader.signalToNoise()
                    let lockTime = reader.integer(in: 0...999)
                    guard let id else { continue }
                    return Satellite(
                        id: id, status: status, azimuthDegrees: azimuth, elevationDegrees: elevation,
                        carrierToNoise: carrierToNoise, lockTimeSeconds: lockTime)
                }
                return nil
            }
        }
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("count", count)
        sink.beginList("satellites")
        for satellite in satellites {
            sink.beginGroup()
            sink.field("id", satellite.id)
            sink.field("status", letter: satellite.status)
            sink.field("azimuth", satellite.azimuthDegrees)
            sink.field("elevation", satellite.elevationDegrees)
            sink.field("cno", satellite.carrierToNoise?.value)
            sink.field("lock_seconds", satellite.lockTimeSeconds)
            sink.endGroup()
        }
        sink.endList()
    }
}
