import NMEA

/// One row of `nmea.positions`: an OwnTracks location checked for values a database should not hold.
public struct StoredPosition: Sendable, Hashable {
    public var vehicle: String
    /// The fix time, whole seconds since 1970 UTC (OwnTracks `tst`).
    public var timestamp: Int64
    public var latitude: Double
    public var longitude: Double
    public var altitudeMeters: Double?
    /// Metres per second (OwnTracks sends km/h).
    public var speed: Double?
    public var courseDegrees: Double?
    public var accuracyMeters: Double?
    public var satellites: Int?

    public init(
        vehicle: String, timestamp: Int64, latitude: Double, longitude: Double,
        altitudeMeters: Double? = nil, speed: Double? = nil, courseDegrees: Double? = nil,
        accuracyMeters: Double? = nil, satellites: Int? = nil
    ) {
        self.vehicle = vehicle
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.speed = speed
        self.courseDegrees = courseDegrees
        self.accuracyMeters = accuracyMeters
        self.satellites = satellites
    }

    /// The row for `location` from `vehicle`.
    /// - Throws: ``RecordProblem`` for a vehicle name that is not usable or a value out of range: a time before
    ///   1970 or after 2200, altitude outside −1,000…100,000 m, speed outside 0…3,000 km/h, course outside
    ///   0…360°, negative accuracy, satellites outside 0…255.
    public init(vehicle: String, location: OwnTracksLocation) throws(RecordProblem) {
        try StoredTrip.check(vehicle: vehicle)
        try Self.check(
            location.timestamp >= 0 && location.timestamp < StoredTrip.latestSeconds, "tst",
            location.timestamp)
        if let altitude = location.altitudeMeters {
            try Self.check((-1000...100_000).contains(altitude), "alt", altitude)
        }
        if let speed = location.speedKmh { try Self.check((0...3000).contains(speed), "vel", speed) }
        if let course = location.courseDegrees { try Self.check((0...360).contains(course), "cog", course) }
        if let accuracy = location.accuracyMeters { try Self.check(accuracy >= 0, "acc", accuracy) }
        if let satellites = location.satellites { try Self.check((0...255).contains(satellites), "sat", satellites) }
        self.init(
            vehicle: vehicle, timestamp: location.timestamp, latitude: location.latitude,
            longitude: location.longitude, altitudeMeters: location.altitudeMeters.map(Double.init),
            speed: location.speedKmh.map { Double($0) / 3.6 }, courseDegrees: location.courseDegrees.map(Double.init),
            accuracyMeters: location.accuracyMeters.map(Double.init), satellites: location.satellites)
    }

    private static func check(_ condition: Bool, _ field: String, _ value: some BinaryInteger) throws(RecordProblem) {
        if !condition { throw RecordProblem("\"\(field)\" \(value) is out of range") }
    }

    /// A fix for the track writers: position, time, altitude (3D when known), speed, course, accuracy, satellites.
    public var fix: Fix {
        let moment = UTCDate.moment(secondsSinceEpoch: timestamp)
        var fix = Fix(
            date: moment.date, time: moment.time,
            latitude: latitude, longitude: longitude, altitudeMeters: altitudeMeters, speed: speed,
            courseDegrees: courseDegrees, quality: .gps, mode: altitudeMeters == nil ? .twoD : .threeD)
        fix.horizontalErrorMeters = accuracyMeters
        fix.satellitesUsed = satellites
        return fix
    }
}

/// One row of `nmea.trips`: a trip message checked for values a database should not hold.
public struct StoredTrip: Sendable, Hashable {
    public var vehicle: String
    public var summary: TripSummary

    /// - Throws: ``RecordProblem`` for an unusable vehicle name, an end before the start, a time outside
    ///   1970…2200, coordinates off the globe, or a negative or non-finite distance or speed.
    public init(vehicle: String, summary: TripSummary) throws(RecordProblem) {
        try Self.check(vehicle: vehicle)
        for (name, point) in [("start", summary.start), ("end", summary.end)] {
            guard point.timestamp >= 0 && point.timestamp / 1_000_000_000 < Self.latestSeconds else {
                throw RecordProblem("\"\(name)\".\"time\" is out of range")
            }
            guard abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
                throw RecordProblem("\"\(name)\" is not a position on the globe")
            }
        }
        guard summary.end.timestamp >= summary.start.timestamp else {
            throw RecordProblem("the trip ends before it starts")
        }
        guard summary.distanceMeters.isFinite, summary.distanceMeters >= 0, summary.maximumSpeedKmh.isFinite,
            summary.maximumSpeedKmh >= 0
        else {
            throw RecordProblem("\"distance_m\" or \"max_speed_kmh\" is out of range")
        }
        self.vehicle = vehicle
        self.summary = summary
    }

    /// 2200-01-01T00:00:00Z: later times are taken for garbage.
    static let latestSeconds: Int64 = 7_258_118_400

    /// A vehicle name (the topic without its first level) must be 1 to 256 bytes without control characters. Any
    /// other text is fine, quotes and SQL included: it only ever travels as a value.
    static func check(vehicle: String) throws(RecordProblem) {
        guard !vehicle.isEmpty, vehicle.utf8.count <= 256 else {
            throw RecordProblem("the vehicle name must be 1 to 256 bytes long")
        }
        if TextEscaping.containsControl(vehicle) { throw RecordProblem("the vehicle name holds control characters") }
    }
}

/// A message that cannot be stored as it is.
public struct RecordProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
