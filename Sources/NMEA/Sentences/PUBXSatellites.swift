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
/// 7. Carrier-to-noise density, dB-Hz
/// 8. Carrier lock time, seconds (0…64)
///
/// The list can be long (u-blox receivers track 30 and more satellites), so it is not copied: ``satellites`` reads
/// it from the sentence as you iterate. Like ``Sentence``, a `PUBXSatellites` is valid only inside the callback that
/// produced it.
public struct PUBXSatellites: DecodableSentence {
    public static var kind: SentenceKind { .pubxSatellites }
    public static var address: SentenceAddress { .proprietary(.pubx, messageID: "0", "3") }
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
        /// dB-Hz.
        public var carrierToNoise: Int?
        /// Seconds, 0…64.
        public var lockTimeSeconds: Int?

        public init(
            id: Int, status: UInt8?, azimuthDegrees: Int?, elevationDegrees: Int?, carrierToNoise: Int?,
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

    /// The satellite count the sentence announces.
    public var count: Int
    /// The satellites, decoded lazily from the sentence.
    public var satellites: Satellites

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        try fields.expectPUBXMessage(3)
        try fields.require(2)
        guard let count = try fields.integer(in: 0...255) else { throw .badField(index: 2, reason: .notANumber) }
        self.count = count
        // Every satellite has six fields; a list cut short (even inside its last satellite) is too short.
        try fields.require(2 + 6 * count)
        satellites = Satellites(reader: fields, count: count)
        // Check the whole list once so that a bad field is reported here, not half-way through an iteration.
        var iterator = satellites.makeIterator()
        while try iterator.nextSatellite() != nil {}
    }

    /// The satellites of a `$PUBX,03`, read from the sentence as they are iterated.
    public struct Satellites: Sequence {
        let reader: FieldReader
        public let count: Int

        public func makeIterator() -> Iterator { Iterator(reader: reader, remaining: count) }

        public struct Iterator: IteratorProtocol {
            var reader: FieldReader
            var remaining: Int

            /// The next satellite; a malformed one ends the iteration (the initializer has already reported it).
            public mutating func next() -> Satellite? {
                (try? nextSatellite()) ?? nil
            }

            mutating func nextSatellite() throws(NMEAError) -> Satellite? {
                guard remaining > 0, reader.hasMore else { return nil }
                remaining -= 1
                let id = try reader.integer(in: 0...999)
                let status = try reader.character()
                let azimuth = try reader.integer(in: 0...360)
                let elevation = try reader.integer(in: -90...90)
                let carrierToNoise = try reader.integer(in: 0...99)
                let lockTime = try reader.integer(in: 0...999)
                guard let id else { throw .badField(index: reader.index - 6, reason: .notANumber) }
                return Satellite(
                    id: id, status: status, azimuthDegrees: azimuth, elevationDegrees: elevation,
                    carrierToNoise: carrierToNoise, lockTimeSeconds: lockTime)
            }
        }
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("count", count)
        sink.beginList("satellites")
        for satellite in satellites {
            sink.beginGroup()
            sink.field("id", satellite.id)
            sink.field("status", letter: satellite.status)
            sink.field("azimuth", satellite.azimuthDegrees)
            sink.field("elevation", satellite.elevationDegrees)
            sink.field("cno", satellite.carrierToNoise)
            sink.field("lock_seconds", satellite.lockTimeSeconds)
            sink.endGroup()
        }
        sink.endList()
    }
}
