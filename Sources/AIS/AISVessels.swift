import NMEA

/// What is known of one station (MMSI) from all its messages so far: `nmea ais`'s rows and the page's vessels.
public struct Vessel: Sendable {
    public let mmsi: Int
    public var name: String?
    public var callSign: String?
    public var shipType: Int?
    public var dimensions: (length: Int, beam: Int)?
    public var destination: String?
    public var position: (latitude: Double, longitude: Double)?
    public var course: Double?
    public var speed: Double?
    public var heading: Int?
    public var messages = 0
    /// When its last message arrived, in the caller's clock (nanoseconds); 0 when not told.
    public var lastSeen: Int64 = 0

    public init(mmsi: Int) { self.mmsi = mmsi }

    /// Takes what `message` says of the station.
    public mutating func update(_ message: AISMessage, at time: Int64 = 0) {
        update(Report(message), at: time)
    }

    /// Takes what one message said of the station (``Report``, read from it on any thread).
    public mutating func update(_ report: Report, at time: Int64 = 0) {
        messages += 1
        lastSeen = max(lastSeen, time)
        name = report.name ?? name
        callSign = report.callSign ?? callSign
        shipType = report.shipType ?? shipType
        dimensions = report.dimensions ?? dimensions
        destination = report.destination ?? destination
        if let motion = report.motion {
            position = motion.position
            course = motion.course
            speed = motion.speed
            heading = motion.heading
        }
    }

    /// What one message says of its station, every value from one decoding of its report (each of the message's
    /// accessors decodes it again): read where the message is, taken by the station's ``Vessel`` in order.
    public struct Report: Sendable {
        public let mmsi: Int
        public let name: String?
        public let callSign: String?
        public let shipType: Int?
        public let dimensions: (length: Int, beam: Int)?
        public let destination: String?
        /// Where the station is and how it moves, for the types that tell (not binary messages 6 and 8).
        public let motion:
            (position: (latitude: Double, longitude: Double), course: Double?, speed: Double?, heading: Int?)?

        public init(_ message: borrowing AISMessage) {
            let report = message.report
            mmsi = message.mmsi
            name = message.shipName(of: report)
            callSign = message.callSign(of: report)
            shipType = message.shipType(of: report)
            dimensions = message.dimensions(of: report)
            destination = message.destination(of: report)
            let moving = message.motion(of: report)
            if message.type != 8, message.type != 6, let position = moving.position {
                motion = (position, moving.course, moving.speed, message.headingDegrees(of: report))
            } else {
                motion = nil
            }
        }
    }
}

/// The stations heard, by MMSI, at most ``capacity`` of them: when a new one comes to a full table, the one heard
/// longest ago is forgotten (a shore station's feed names tens of thousands of vessels a day; the page shows those
/// around now). One lookup a message; the eviction scans the table, once per new station beyond the capacity.
public struct VesselRegistry: Sendable {
    public let capacity: Int
    public private(set) var vessels: [Int: Vessel] = [:]
    /// Stations forgotten to make room.
    public private(set) var evicted = 0

    public init(capacity: Int = 4096) {
        precondition(capacity >= 1, "a registry holds at least one vessel")
        self.capacity = capacity
    }

    /// Takes `message` (at `time`, nanoseconds in the caller's clock); returns its station as it now stands.
    @discardableResult
    public mutating func update(_ message: AISMessage, at time: Int64 = 0) -> Vessel {
        let mmsi = message.mmsi
        if vessels[mmsi] == nil, vessels.count >= capacity,
            let oldest = vessels.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key
        {
            vessels[oldest] = nil
            evicted += 1
        }
        vessels[mmsi, default: Vessel(mmsi: mmsi)].update(message, at: time)
        return vessels[mmsi]!
    }

    /// The vessels in MMSI order.
    public var sorted: [Vessel] { vessels.values.sorted { $0.mmsi < $1.mmsi } }
}

/// AIS sentences one at a time, as bytes from `!` to the checksum (a pipeline's sentence records), into messages:
/// the framer and the one ``AISDecoder`` that the gpsd server and the page share.
public struct AISSentenceReader: ~Copyable {
    private var framer = Framer()
    public private(set) var decoder = AISDecoder()

    public init() {}

    /// The message `bytes` complete, if any; other sentences and parts give `nil`.
    public mutating func add(_ bytes: UnsafeRawBufferPointer) -> AISMessage? {
        guard bytes.first == UInt8(ascii: "!") else { return nil }
        var message: AISMessage?
        var decoder = self.decoder
        defer { self.decoder = decoder }
        func take(_ event: FramerEvent) {
            guard case .sentence(let sentence) = event, let completed = try? decoder.add(sentence) else { return }
            message = completed
        }
        framer.feed(bytes, take)
        withUnsafeBytes(of: UInt16(0x0A0D).littleEndian) { framer.feed($0, take) }
        return message
    }
}
